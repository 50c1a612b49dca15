package dev.harness4j.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a task's result is checked: a shell command run in the run's workspace after the agent has
 * finished, with the agent's changes in place. Exit 0 is {@code passed}, any other exit {@code
 * failed}; exit 126 or 127 (command not runnable, not found) or a start failure is {@code
 * verifier-error}; past its timeout it is {@code verifier-timeout}. The command may write a reward
 * in [0, 1] to the file named by the environment variable {@value #REWARD_ENV}.
 *
 * @param command the command, run with {@code sh -c} in the workspace
 * @param timeout how long it may run; its whole process tree is stopped after
 * @param files a directory whose contents are copied into the workspace under the same name
 *     ({@code verify/}, say) only after the agent has finished, or {@code null} for none
 */
public record TaskVerify(String command, Duration timeout, Path files) {
    /** The default timeout of a verify command: 2 minutes. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    /** The environment variable naming the file a verifier may write its reward to. */
    public static final String REWARD_ENV = "HARNESS4J_REWARD_FILE";

    public TaskVerify {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(timeout, "timeout");
        if (command.isBlank()) {
            throw new IllegalArgumentException("the verify command is blank");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the verify timeout must be positive, was " + timeout);
        }
    }

    /** A command with the {@link #DEFAULT_TIMEOUT} and no files. */
    public static TaskVerify of(String command) {
        return new TaskVerify(command, DEFAULT_TIMEOUT, null);
    }
}
