package dev.harness4j.core.queue;

import dev.harness4j.api.RunSpec;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One durable queue entry: a {@link RunSpec} and where it stands.
 *
 * @param id the entry id (safe as a file name)
 * @param spec what to run
 * @param state where the entry stands
 * @param attempts how many times the entry was claimed (started), crashed attempts included
 * @param enqueuedAt when it was queued; entries run in this order
 * @param owner the process running it while {@code running}, else {@code null}
 * @param runId the run id of the current or last attempt, or {@code null} before the first
 * @param notBefore the entry is not started before this instant (retry backoff, rate-limit
 *     reset), or {@code null}
 * @param lastOutcome the wire name of the last attempt's outcome ({@code completed}, {@code
 *     rate-limited}, ...) or {@code crashed}, or {@code null}
 * @param reason why the entry is where it is, in words, or {@code null}
 * @param updatedAt when the entry last changed
 */
public record QueueEntry(
        String id,
        RunSpec spec,
        State state,
        int attempts,
        Instant enqueuedAt,
        Owner owner,
        String runId,
        Instant notBefore,
        String lastOutcome,
        String reason,
        Instant updatedAt) {

    /** The states of an entry: {@code queued → running → done | failed | interrupted}. */
    public enum State {
        /** Waiting to be claimed (possibly not before {@link QueueEntry#notBefore()}). */
        QUEUED,
        /** Claimed by {@link QueueEntry#owner()}, which runs it. */
        RUNNING,
        /** Ran to a successful outcome ({@code completed} or {@code no-op}). Terminal. */
        DONE,
        /** Ran to an outcome that is not retried, or ran out of attempts. Terminal. */
        FAILED,
        /** Stopped by a processor stop or a JVM shutdown; queued again at the next recovery. */
        INTERRUPTED;

        /** The lower-case name used on disk. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static State fromWireName(String name) {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        }

        /** Whether the entry will never run again on its own ({@code done}, {@code failed}). */
        public boolean isTerminal() {
            return this == DONE || this == FAILED;
        }
    }

    public QueueEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (!isValidId(id)) {
            throw new IllegalArgumentException("entry id must be [A-Za-z0-9._-]+, was '" + id + "'");
        }
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must be >= 0, was " + attempts);
        }
        if (state == State.RUNNING && (owner == null || runId == null)) {
            throw new IllegalArgumentException("a running entry needs an owner and a run id: " + id);
        }
    }

    /** Whether {@code id} is a valid entry id: {@code [A-Za-z0-9._-]+}, not {@code .} or {@code ..}. */
    static boolean isValidId(String id) {
        return id != null && id.matches("[A-Za-z0-9._-]+") && !id.equals(".") && !id.equals("..");
    }

    /** A new entry in state {@code queued}. */
    public static QueueEntry queued(String id, RunSpec spec, Instant enqueuedAt) {
        return new QueueEntry(id, spec, State.QUEUED, 0, enqueuedAt, null, null, null, null, null, enqueuedAt);
    }

    public Optional<Owner> ownerValue() {
        return Optional.ofNullable(owner);
    }

    public Optional<Instant> notBeforeValue() {
        return Optional.ofNullable(notBefore);
    }

    /** Whether the entry is queued and may start at {@code now}. */
    public boolean isDue(Instant now) {
        return state == State.QUEUED && (notBefore == null || !notBefore.isAfter(now));
    }

    /** This entry claimed by {@code by} for a new attempt with run id {@code newRunId}. */
    public QueueEntry claimed(Owner by, String newRunId, Instant now) {
        return new QueueEntry(id, spec, State.RUNNING, attempts + 1, enqueuedAt, Objects.requireNonNull(by, "by"),
                Objects.requireNonNull(newRunId, "newRunId"), null, lastOutcome, null, now);
    }

    /** This entry queued again, not before {@code after} ({@code null}: at once). */
    public QueueEntry requeued(Instant after, String outcome, String why, Instant now) {
        return new QueueEntry(id, spec, State.QUEUED, attempts, enqueuedAt, null, runId, after, outcome, why, now);
    }

    /** This entry in a final or interrupted state. */
    public QueueEntry ended(State to, String outcome, String why, Instant now) {
        if (to == State.QUEUED || to == State.RUNNING) {
            throw new IllegalArgumentException("ended(..) takes done, failed or interrupted, not " + to);
        }
        return new QueueEntry(id, spec, to, attempts, enqueuedAt, null, runId, null, outcome, why, now);
    }
}
