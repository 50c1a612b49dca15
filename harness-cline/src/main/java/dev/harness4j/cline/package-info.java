/**
 * The Cline CLI adapter (id {@code cline}, OPAQUE): {@link dev.harness4j.cline.ClineHarness} runs
 * {@code cline --json} with a per-run {@code --data-dir} and reads outcome, tokens and the summary
 * from its JSONL events; the answering model and a rate limit's reset time come from the meter.
 */
package dev.harness4j.cline;
