package dev.harness4j.core.process;

import dev.harness4j.api.Termination;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How one supervised process ended.
 *
 * @param exitCode the exit code as the OS reported it ({@code 128 + signal} for a killed
 *     process), or {@code null} when the process never started
 * @param termination why it ended
 * @param startedAt when the supervisor began starting it
 * @param finishedAt when the process and every descendant were gone and output was drained
 * @param pid the process id (also its process group and session id), or {@code -1} when it
 *     never started
 */
public record ProcessOutcome(Integer exitCode, Termination termination, Instant startedAt, Instant finishedAt, long pid) {

    public ProcessOutcome {
        Objects.requireNonNull(termination, "termination");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
    }

    /** Wall time from start to the end of supervision. */
    public Duration duration() {
        return Duration.between(startedAt, finishedAt);
    }
}
