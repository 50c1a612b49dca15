/**
 * The Gemini CLI adapter (id {@code gemini}, OPAQUE): {@link dev.harness4j.gemini.GeminiHarness}
 * runs {@code gemini --output-format stream-json} with a per-run {@code GEMINI_CLI_HOME} and reads
 * outcome, tokens, the answering models and the summary from its events.
 */
package dev.harness4j.gemini;
