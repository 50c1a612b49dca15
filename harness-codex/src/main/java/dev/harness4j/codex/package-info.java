/**
 * The Codex CLI adapter (id {@code codex}, OPAQUE): {@link dev.harness4j.codex.CodexHarness} runs
 * {@code codex exec --json} with a per-run {@code CODEX_HOME} and reads outcome, tokens, the
 * answering model and the summary from its events and its log.
 */
package dev.harness4j.codex;
