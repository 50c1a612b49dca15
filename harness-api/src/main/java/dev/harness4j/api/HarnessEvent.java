package dev.harness4j.api;

import java.time.Instant;
import java.util.Objects;

/** Something that happened during a run, delivered to a {@link HarnessListener}. */
public sealed interface HarnessEvent permits HarnessEvent.OutputLine, HarnessEvent.StatusChanged {

    /**
     * The run this event belongs to.
     *
     * @return the run id
     */
    String runId();

    /**
     * When it happened.
     *
     * @return the event's time
     */
    Instant at();

    /** Which output stream a line came from. */
    enum Stream {
        /** The process's standard output. */
        STDOUT,
        /** The process's standard error. */
        STDERR
    }

    /** The stages of one run, in order. */
    enum Status {
        /** Resolving the harness and provider, isolating the workspace, preparing. */
        PREPARING,
        /** The harness process runs. */
        RUNNING,
        /** Reading git changes, interpreting, writing results. */
        CAPTURING,
        /** The result is on disk. */
        FINISHED
    }

    /**
     * One line of output. {@code activity} is false for a line identical to the previous one,
     * which does not count as activity for the inactivity guard.
     *
     * @param text the line, {@code \r} stripped, invalid UTF-8 replaced, cut when very long
     * @param truncated whether {@code text} was cut (the transcript keeps the whole line)
     * @param activity whether the line differs from the previous one
     * @param runId the run this line belongs to
     * @param at when the line was read
     * @param stream which stream the line came from
     */
    record OutputLine(String runId, Instant at, Stream stream, String text, boolean truncated, boolean activity)
            implements HarnessEvent {
        /**
         * Checks the required parts.
         *
         * @param runId the run this line belongs to
         * @param at when the line was read
         * @param stream which stream the line came from
         * @param text the line
         * @param truncated whether {@code text} was cut
         * @param activity whether the line differs from the previous one
         */
        public OutputLine {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A run moved to a new stage.
     *
     * @param detail e.g. the outcome when {@code FINISHED}, or {@code null}
     * @param runId the run that moved
     * @param at when it moved
     * @param status the new stage
     */
    record StatusChanged(String runId, Instant at, Status status, String detail) implements HarnessEvent {
        /**
         * Checks the required parts.
         *
         * @param runId the run that moved
         * @param at when it moved
         * @param status the new stage
         * @param detail e.g. the outcome when {@code FINISHED}, or {@code null}
         */
        public StatusChanged {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(status, "status");
        }
    }
}
