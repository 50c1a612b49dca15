/**
 * The GitHub Copilot CLI adapter (id {@code copilot}, OPAQUE): {@link dev.harness4j.copilot.CopilotHarness}
 * runs {@code copilot -p <prompt> --output-format json} in BYOK mode ({@code COPILOT_PROVIDER_*},
 * {@code COPILOT_OFFLINE=true}, no GitHub login) with a per-run {@code COPILOT_HOME} and {@code HOME},
 * and reads outcome, the summary and the session id from its JSONL events; tokens, the answering
 * model and a rate limit's reset time come from the meter.
 */
package dev.harness4j.copilot;
