/**
 * The Continue CLI adapter (id {@code continue}, OPAQUE): {@link dev.harness4j.continuedev.ContinueHarness}
 * runs {@code cn -p --auto --format json} with a per-run {@code config.yaml} and {@code
 * CONTINUE_GLOBAL_DIR}, and reads outcome and summary from its one final JSON object (or the error
 * object on stderr); tokens, the answering model, a rate limit's reset time and the trajectory
 * come from the meter and the wire.
 */
package dev.harness4j.continuedev;
