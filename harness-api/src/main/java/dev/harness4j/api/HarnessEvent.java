package dev.harness4j.api;

import java.time.Instant;
import java.util.Objects;

/** Something that happened during a run, delivered to a {@link HarnessListener}. */
public sealed interface HarnessEvent permits HarnessEvent.OutputLine, HarnessEvent.StatusChanged {

    /** The run this event belongs to. */
    String runId();

    /** When it happened. */
    Instant at();

    /** Which output stream a line came from. */
    enum Stream { STDOUT, STDERR }

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
     */
    record OutputLine(String runId, Instant at, Stream stream, String text, boolean truncated, boolean activity)
            implements HarnessEvent {
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
     */
    record StatusChanged(String runId, Instant at, Status status, String detail) implements HarnessEvent {
        public StatusChanged {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(status, "status");
        }
    }
}
