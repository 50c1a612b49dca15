package dev.harness4j.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a task's result is checked: a shell command run in the run's workspace after the agent has
 * finished, with the agent's changes in place. Exit 0 is {@code passed}, any other exit {@code
 * failed}; exit 126 or 127 (command not runnable, not found) or a start failure is {@code
 * verifier-error}; past its timeout it is {@code verifier-timeout}. The command may write a reward
 * in [0, 1] to the file named by the environment variable {@value #REWARD_ENV}, and several named
 * metrics, each in [0, 1], as a JSON object ({@code {"tests": 1.0, "lint": 0.5}}) to the file named
 * by {@value #REWARDS_ENV}. Every metric is kept in {@code meta.json}'s {@code verify.rewards}; the
 * run's reward is the {@linkplain #primaryMetric() primary metric}, else the metric named {@code
 * reward}, else the mean of the metrics.
 *
 * <p>When {@link #passReward()} is set, the reward decides the verdict instead of the exit code:
 * {@code passed} when it is at least that, {@code failed} below, {@code verifier-error} when the
 * command wrote none. Harbor tasks ({@link Layout#HARBOR}) are judged so (at 1.0 unless the task
 * says otherwise), as Harbor judges them.
 *
 * <pre>{@code
 * TaskVerify v = TaskVerify.builder("sh verify/grade.sh").primaryMetric("tests").passReward(1.0).build();
 * }</pre>
 *
 * @param command the command, run with {@code sh -c} in the workspace
 * @param timeout how long it may run; its whole process tree is stopped after
 * @param files a directory copied into the workspace (as {@code <its name>/}, {@code verify/}, say)
 *     only after the agent has finished, or {@code null} for none; for {@link Layout#HARBOR} the
 *     task's {@code tests/}, copied outside the workspace
 * @param primaryMetric the metric that is the run's reward, or {@code null}
 * @param passReward the reward at or above which the run passes, in [0, 1], or {@code null} when
 *     the exit code decides
 * @param layout where the verifier files go and where the command writes its rewards
 */
public record TaskVerify(String command, Duration timeout, Path files, String primaryMetric, Double passReward,
        Layout layout) {
    /** The default timeout of a verify command: 2 minutes. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    /** The environment variable naming the file a verifier may write its reward to. */
    public static final String REWARD_ENV = "HARNESS4J_REWARD_FILE";
    /** The environment variable naming the file a verifier may write its named metrics to (a JSON object). */
    public static final String REWARDS_ENV = "HARNESS4J_REWARDS_FILE";

    /** Where a verifier's files go and where it writes its rewards. */
    public enum Layout {
        /**
         * harness4j's own: {@code files} copied into the workspace under their directory's name,
         * rewards written to the files named by {@value #REWARD_ENV} and {@value #REWARDS_ENV}.
         */
        WORKSPACE,
        /**
         * Harbor's: {@code files} (the task's {@code tests/}) at {@code /tests}, rewards written to
         * {@code /logs/verifier/reward.txt} or {@code reward.json}. Both are per-run directories
         * outside the workspace (the repository's own {@code tests/} stays as the agent left it);
         * with no container to mount them at those paths, the absolute paths {@code /tests} and
         * {@code /logs/verifier} in the command and in the copied files are rewritten to them.
         */
        HARBOR
    }

    public TaskVerify {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(layout, "layout");
        if (command.isBlank()) {
            throw new IllegalArgumentException("the verify command is blank");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the verify timeout must be positive, was " + timeout);
        }
        if (primaryMetric != null && primaryMetric.isBlank()) {
            throw new IllegalArgumentException("the primary metric's name is blank");
        }
        if (passReward != null && !(passReward >= 0.0 && passReward <= 1.0)) {
            throw new IllegalArgumentException("the pass reward must be in [0, 1], was " + passReward);
        }
    }

    /** A verifier of harness4j's layout, judged by its exit code. */
    public TaskVerify(String command, Duration timeout, Path files) {
        this(command, timeout, files, null, null, Layout.WORKSPACE);
    }

    /** A command with the {@link #DEFAULT_TIMEOUT} and no files. */
    public static TaskVerify of(String command) {
        return new TaskVerify(command, DEFAULT_TIMEOUT, null);
    }

    /** A builder of a verifier running {@code command}. */
    public static Builder builder(String command) {
        return new Builder(command);
    }

    /** Builds a {@link TaskVerify}; unset: the default timeout, no files, the exit code decides. */
    public static final class Builder {
        private final String command;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Path files;
        private String primaryMetric;
        private Double passReward;
        private Layout layout = Layout.WORKSPACE;

        private Builder(String command) {
            this.command = Objects.requireNonNull(command, "command");
        }

        public Builder timeout(Duration value) {
            this.timeout = Objects.requireNonNull(value, "timeout");
            return this;
        }

        /** The verifier files' directory, or {@code null} for none. */
        public Builder files(Path value) {
            this.files = value;
            return this;
        }

        /** The metric that is the run's reward, or {@code null} (the one named {@code reward}, else the mean). */
        public Builder primaryMetric(String value) {
            this.primaryMetric = value;
            return this;
        }

        /** The reward at or above which a run passes, or {@code null} to judge by the exit code. */
        public Builder passReward(Double value) {
            this.passReward = value;
            return this;
        }

        public Builder layout(Layout value) {
            this.layout = Objects.requireNonNull(value, "layout");
            return this;
        }

        public TaskVerify build() {
            return new TaskVerify(command, timeout, files, primaryMetric, passReward, layout);
        }
    }
}
