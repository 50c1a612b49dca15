package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.workspace.RunLeftovers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable run queue: enqueue specs, claim them atomically, record how each attempt ended
 * (retrying by outcome per the {@link RetryPolicy}), and recover what a dead process left
 * running. Thread-safe; any number of processes may share one state dir.
 *
 * <pre>{@code
 * RunQueue queue = RunQueue.builder().stateDir(Path.of("/var/lib/bench")).build();
 * queue.recover();                                   // at start: re-queue what a crash left running
 * queue.enqueue(List.of(spec1, spec2));
 * Optional<QueueEntry> mine = queue.claim(entryId);  // atomic: at most one claimer wins
 * queue.finish(mine.get(), result);                  // done, failed, or queued again for a retry
 * }</pre>
 */
public final class RunQueue {
    /** How long recovery gives a survivor of a dead owner between SIGTERM and SIGKILL: 5 s. */
    public static final Duration DEFAULT_KILL_GRACE = Duration.ofSeconds(5);

    /** How long recovery waits for {@code git worktree prune} in a dead worktree run's baseline: 60 s. */
    public static final Duration DEFAULT_GIT_TIMEOUT = Duration.ofSeconds(60);

    /** The {@code last_outcome} recorded for an attempt whose process died. */
    public static final String CRASHED = "crashed";

    private static final Logger log = LoggerFactory.getLogger(RunQueue.class);
    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(ZoneOffset.UTC);

    private final QueueStore store;
    private final Path stateDir;
    private final RetryPolicy retry;
    private final SurvivorKiller killer;
    private final Duration killGrace;
    private final Duration gitTimeout;
    private final Clock clock;
    private final Owner self;
    private final SecureRandom random = new SecureRandom();

    /** Kills the processes still carrying a run's marker; returns how many it found. */
    @FunctionalInterface
    public interface SurvivorKiller {
        int killAll(String runId, Duration grace);
    }

    /**
     * What {@link #recover()} did.
     *
     * @param requeued entries queued again (dead owners' and interrupted ones)
     * @param failed entries given up because they had no attempts left
     * @param survivorsKilled processes found carrying a dead owner's run marker
     * @param workspacesRemoved stale run directories removed
     */
    public record Recovery(List<String> requeued, List<String> failed, int survivorsKilled, int workspacesRemoved) {
        public Recovery {
            requeued = List.copyOf(requeued);
            failed = List.copyOf(failed);
        }
    }

    private RunQueue(Builder b) {
        this.stateDir = b.stateDir;
        this.store = b.store != null ? b.store : new FileQueueStore(b.stateDir.resolve("queue"));
        this.retry = b.retry;
        this.killer = b.killer;
        this.killGrace = b.killGrace;
        this.gitTimeout = b.gitTimeout;
        this.clock = b.clock;
        this.self = b.owner != null ? b.owner : Owner.current();
    }

    public static Builder builder() {
        return new Builder();
    }

    public QueueStore store() {
        return store;
    }

    public RetryPolicy retryPolicy() {
        return retry;
    }

    /** The owner this queue claims entries as (this process). */
    public Owner owner() {
        return self;
    }

    /** Queues one spec. */
    public QueueEntry enqueue(RunSpec spec) {
        return enqueue(List.of(spec)).get(0);
    }

    /** Queues specs, to run in the given order (after what is already queued). */
    public List<QueueEntry> enqueue(List<RunSpec> specs) {
        Instant base = clock.instant();
        List<QueueEntry> out = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            Instant at = base.plusNanos(i * 1_000L); // keeps the order within one batch
            QueueEntry e = QueueEntry.queued(newId("q", at), Objects.requireNonNull(specs.get(i), "spec"), at);
            store.add(e);
            out.add(e);
        }
        return out;
    }

    public List<QueueEntry> entries() {
        return store.list();
    }

    /** The entries that are not finished (what a processor polls; cheap however long the history). */
    List<QueueEntry> activeEntries() {
        return store.listActive();
    }

    public Optional<QueueEntry> entry(String id) {
        return store.get(id);
    }

    /**
     * Claims a due entry for this process: {@code queued → running} with a new run id and the
     * attempt counted. Atomic: when several threads or processes claim the same entry, one wins.
     *
     * @return the claimed entry, or empty when it is not queued, not yet due, or gone
     * @throws QueueEntryLockedException when another process holds the entry's lock too long
     */
    public Optional<QueueEntry> claim(String id) {
        return claim(id, () -> false);
    }

    /**
     * As {@link #claim(String)}, but gives up waiting for another process's lock on the entry once
     * {@code giveUp} says so (then empty: nothing claimed). A {@link QueueProcessor} claims this
     * way, so that its stop is not held up by a locked entry.
     */
    public Optional<QueueEntry> claim(String id, BooleanSupplier giveUp) {
        Objects.requireNonNull(giveUp, "giveUp");
        Instant now = clock.instant();
        return store.update(id, e -> e.isDue(now) ? e.claimed(self, newId("r", now), now) : null, giveUp);
    }

    /**
     * Records how an attempt ended: {@code done} for a success, queued again when the {@link
     * RetryPolicy} retries the outcome, else {@code failed}. {@code bailed} runs become {@code
     * interrupted}.
     *
     * @return the entry as written, or empty when the entry no longer belongs to this attempt
     */
    public Optional<QueueEntry> finish(QueueEntry attempt, HarnessResult result) {
        Objects.requireNonNull(result, "result");
        Instant now = clock.instant();
        Outcome outcome = result.outcome();
        String wire = outcome.wireName();
        return store.update(attempt.id(), e -> {
            if (!ownedAttempt(e, attempt)) {
                return null;
            }
            if (outcome.isSuccess()) {
                return e.ended(QueueEntry.State.DONE, wire, result.reason(), now);
            }
            if (outcome == Outcome.BAILED) {
                return e.ended(QueueEntry.State.INTERRUPTED, wire, result.reason(), now);
            }
            Instant again = retry.retryTime(outcome, e.attempts(), result.retryAt(), now);
            if (again != null) {
                return e.requeued(again, wire, "retry " + (e.attempts() + 1) + "/" + retry.maxAttempts()
                        + " after " + wire + (result.reason() == null ? "" : ": " + result.reason()), now);
            }
            String why = outcome.isRetryable() || (outcome == Outcome.TIMEOUT && retry.retryTimeouts())
                    ? "gave up after " + e.attempts() + " attempts: " + nullToEmpty(result.reason())
                    : result.reason();
            return e.ended(QueueEntry.State.FAILED, wire, why, now);
        });
    }

    /**
     * Records that an attempt failed outside the harness (the runner threw instead of returning
     * a result): {@code failed}, never retried, since the same bug would fail again.
     */
    public Optional<QueueEntry> fail(QueueEntry attempt, String reason) {
        Instant now = clock.instant();
        return store.update(attempt.id(), e -> ownedAttempt(e, attempt)
                ? e.ended(QueueEntry.State.FAILED, Outcome.ERROR.wireName(), reason, now) : null);
    }

    /** Marks a running attempt of this process as interrupted (a stop); queued again by {@link #recover()}. */
    public Optional<QueueEntry> interrupt(QueueEntry attempt, String reason) {
        Instant now = clock.instant();
        return store.update(attempt.id(), e -> ownedAttempt(e, attempt)
                ? e.ended(QueueEntry.State.INTERRUPTED, Outcome.BAILED.wireName(), reason, now) : null);
    }

    /**
     * Crash recovery, to call at start: for every entry left {@code running} by a process that is
     * dead (pid gone, or reused by another process), kills any survivor carrying its run marker,
     * removes its workspace {@code <stateDir>/runs/<runId>} (and, in worktree mode, its
     * registration in the baseline), and queues it again (its attempt
     * counted; {@code failed} when none is left). {@code interrupted} entries are queued again
     * too. Entries of live owners, or owners on other hosts, are left alone.
     */
    public Recovery recover() {
        List<String> requeued = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        int killed = 0;
        int removed = 0;
        for (QueueEntry e : store.listActive()) {
            if (e.state() == QueueEntry.State.INTERRUPTED) {
                Instant now = clock.instant();
                store.update(e.id(), cur -> cur.state() == QueueEntry.State.INTERRUPTED
                        ? cur.requeued(null, cur.lastOutcome(), "interrupted; queued again", now) : null)
                        .ifPresent(x -> requeued.add(x.id()));
                continue;
            }
            if (e.state() != QueueEntry.State.RUNNING || !e.owner().isDeadOnThisHost()) {
                continue;
            }
            killed += killer.killAll(e.runId(), killGrace);
            if (removeWorkspace(e)) {
                removed++;
            }
            Instant now = clock.instant();
            Optional<QueueEntry> after = store.update(e.id(), cur -> {
                if (cur.state() != QueueEntry.State.RUNNING || !cur.runId().equals(e.runId())) {
                    return null; // someone else recovered it first
                }
                String why = "owner pid " + cur.owner().pid() + " died during attempt " + cur.attempts();
                return cur.attempts() < retry.maxAttempts()
                        ? cur.requeued(null, CRASHED, why + "; queued again", now)
                        : cur.ended(QueueEntry.State.FAILED, CRASHED, why + "; no attempts left", now);
            });
            after.ifPresent(x -> (x.state() == QueueEntry.State.QUEUED ? requeued : failed).add(x.id()));
        }
        if (!requeued.isEmpty() || !failed.isEmpty()) {
            log.info("queue recovery: re-queued {}, failed {}, killed {} survivors, removed {} workspaces",
                    requeued, failed, killed, removed);
        }
        return new Recovery(requeued, failed, killed, removed);
    }

    /**
     * Removes what a run left under {@code <stateDir>/runs}: its directory {@code <runId>} and
     * files next to it named {@code <runId>.*} (the runner's {@code <runId>.events.jsonl}), and a
     * half-written {@code results/.tmp-<runId>}, through {@link RunLeftovers#remove} (only below
     * the state dir, symlinks deleted, never followed, read-only directories made writable). For a {@link Isolation#WORKTREE} run it then prunes
     * the baseline's registration of the worktree ({@code git worktree prune}), since the dead
     * process never ran {@code git worktree remove}.
     */
    private boolean removeWorkspace(QueueEntry entry) {
        String runId = entry.runId();
        if (stateDir == null || runId == null || !runId.matches("[A-Za-z0-9._-]+")) {
            return false;
        }
        boolean removed = false;
        try {
            removed = !RunLeftovers.remove(stateDir, runId).isEmpty();
        } catch (RuntimeException e) {
            log.warn("cannot remove the stale workspace of run {} under {}: {}", runId, stateDir.resolve("runs"), e.toString());
        }
        if (entry.spec().isolation() == Isolation.WORKTREE) {
            pruneWorktrees(entry.spec().baseline());
        }
        return removed;
    }

    /**
     * {@code git worktree prune} in the baseline: drops registrations whose directory is gone
     * (through {@link Workspaces}, which serializes and retries worktree commands per baseline).
     */
    private void pruneWorktrees(Path baseline) {
        try {
            Workspaces.builder().stateDir(stateDir).gitTimeout(gitTimeout).build().pruneWorktrees(baseline);
        } catch (RuntimeException e) {
            log.warn("stale worktree registrations may stay in {} ({}); run `git worktree prune` there to drop them",
                    baseline, e.getMessage());
        }
    }

    private boolean ownedAttempt(QueueEntry current, QueueEntry attempt) {
        return current.state() == QueueEntry.State.RUNNING && Objects.equals(current.runId(), attempt.runId());
    }

    private String newId(String prefix, Instant at) {
        byte[] b = new byte[5];
        random.nextBytes(b);
        return prefix + "-" + ID_TIME.format(at) + "-" + HexFormat.of().formatHex(b);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** Builds a {@link RunQueue}; a state dir or a store is required. */
    public static final class Builder {
        private Path stateDir;
        private QueueStore store;
        private RetryPolicy retry = RetryPolicy.DEFAULT;
        private SurvivorKiller killer = RunMarker::killAll;
        private Duration killGrace = DEFAULT_KILL_GRACE;
        private Duration gitTimeout = DEFAULT_GIT_TIMEOUT;
        private Clock clock = Clock.systemUTC();
        private Owner owner;

        private Builder() {}

        /** The state dir: entries under {@code queue/}, workspaces under {@code runs/}. */
        public Builder stateDir(Path value) {
            this.stateDir = Objects.requireNonNull(value, "stateDir").toAbsolutePath();
            return this;
        }

        /** Another store than the embedded {@link FileQueueStore}. */
        public Builder store(QueueStore value) {
            this.store = Objects.requireNonNull(value, "store");
            return this;
        }

        public Builder retryPolicy(RetryPolicy value) {
            this.retry = Objects.requireNonNull(value, "retryPolicy");
            return this;
        }

        /**
         * How recovery kills a dead owner's survivors (default: {@link RunMarker#killAll(String,
         * Duration)}, by run id alone: queue run ids carry a timestamp and a random part, unique
         * across state dirs).
         */
        public Builder survivorKiller(SurvivorKiller value) {
            this.killer = Objects.requireNonNull(value, "survivorKiller");
            return this;
        }

        public Builder killGrace(Duration value) {
            Objects.requireNonNull(value, "killGrace");
            if (value.isNegative()) {
                throw new IllegalArgumentException("killGrace must be >= 0, was " + value);
            }
            this.killGrace = value;
            return this;
        }

        /** How long recovery waits for {@code git worktree prune} (default {@link #DEFAULT_GIT_TIMEOUT}). */
        public Builder gitTimeout(Duration value) {
            this.gitTimeout = Checks.positive(value, "gitTimeout");
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** Claims as this owner instead of the current process (tests of recovery). */
        public Builder owner(Owner value) {
            this.owner = Objects.requireNonNull(value, "owner");
            return this;
        }

        public RunQueue build() {
            if (stateDir == null && store == null) {
                throw new IllegalStateException("RunQueue needs a stateDir(..) or a store(..)");
            }
            return new RunQueue(this);
        }
    }
}
