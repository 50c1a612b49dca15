/**
 * The mini-swe-agent adapter (id {@code mini-swe-agent}, OPAQUE): {@link
 * dev.harness4j.miniswe.MiniSweAgentHarness} runs mini-swe-agent's non-interactive agent in a
 * per-run config dir and reads outcome, tokens, cost and the answering model from its trajectory
 * file.
 */
package dev.harness4j.miniswe;
