/**
 * The aider adapter (id {@code aider}, OPAQUE): runs {@code aider-chat} 0.86.2 headless against
 * a provider's OpenAI-compatible endpoint.
 *
 * <p>{@link dev.harness4j.aider.AiderHarness} is the {@link dev.harness4j.api.Harness}
 * registered for {@link java.util.ServiceLoader}; {@link dev.harness4j.aider.AiderOptions} lists
 * the run-spec options it reads ({@code edit-format}, {@code auto-commits}, {@code stream}).
 * Internally, {@code AiderLaunch} builds the invocation (a small launch script that keeps
 * {@code .aider*} out of git, then execs aider with the prompt in a file and {@code HOME} in the
 * scratch dir), {@code AiderOutput} reads which error a run ended with, and {@code UsageLines}
 * adds up its {@code Tokens:} and {@code Cost:} lines.
 */
package dev.harness4j.aider;
