package dev.harness4j.core.process;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Termination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts one harness process per run in its own session, drains and guards it, and stops its
 * whole process tree so that nothing carrying the run's {@link RunMarker} outlives {@link
 * #run}. Thread-safe: many runs may be supervised at once, each on its caller's thread.
 *
 * <pre>{@code
 * try (ProcessSupervisor supervisor = ProcessSupervisor.builder().termGrace(Duration.ofSeconds(5)).build()) {
 *     ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, invocation, runDir)
 *             .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(30))).build());
 *     // elsewhere, from any thread: supervisor.bail(runId);
 * }
 * }</pre>
 *
 * <p>Stopping a run (a limit, {@link #bail}, {@link #close}, the JVM's shutdown hook) sends
 * {@code TERM} to every process in the run's session and process group and to every process
 * carrying its marker (so a double-forked grandchild that called {@code setsid} is found too),
 * waits up to the term grace, then sends {@code KILL} until none is left. The same sweep runs
 * after a process exits by itself, for whatever it left behind. Needs Linux ({@code /proc})
 * and {@code setsid} (util-linux).
 */
public final class ProcessSupervisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProcessSupervisor.class);

    /** How long a stopped run's processes get between {@code TERM} and {@code KILL}. */
    public static final Duration DEFAULT_TERM_GRACE = Duration.ofSeconds(5);
    /** How long output is still drained once every process of the run is gone. */
    public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
    /** Events carry at most this many bytes of a line (cut at a character boundary); the transcript keeps it whole. */
    public static final int EVENT_LINE_MAX_BYTES = 8 * 1024;
    /**
     * Bytes of one line held in memory; a longer line is written to the transcript in pieces
     * (whole, though the other stream's lines may land between its pieces).
     */
    public static final int LINE_BUFFER_MAX_BYTES = 1024 * 1024;

    private static final List<Path> SETSID_CANDIDATES = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

    private final Duration termGrace;
    private final Path setsid;
    private final Map<String, ActiveRun> active = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;

    private ProcessSupervisor(Duration termGrace, Path setsid) {
        this.termGrace = termGrace;
        this.setsid = setsid;
        this.shutdownHook = new Thread(() -> shutdown("the JVM is shutting down"), "harness4j-supervisor-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Writes {@code invocation.files()} into the scratch dir, starts the process in its own
     * session, drains stdout and stderr, guards it, and blocks until it and every process
     * carrying the run's marker are gone. A process that cannot start (missing binary or
     * working dir) gives {@link Termination.Kind#START_FAILED}, not an exception. When the
     * calling thread is interrupted, the run is stopped like a shutdown and the interrupt
     * status is set again on return.
     *
     * @throws IllegalStateException when this supervisor is closed or a run with the same id is
     *     running
     */
    public ProcessOutcome run(ProcessRequest request) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        if (closed.get()) {
            throw new IllegalStateException("this ProcessSupervisor is closed; build a new one to run " + request.runId());
        }
        ActiveRun a = new ActiveRun(new RunGuard(request.limits()), request.scope());
        if (active.putIfAbsent(request.runId(), a) != null) {
            throw new IllegalStateException("run " + request.runId() + " is already running; run ids must be unique");
        }
        try {
            if (closed.get()) {
                a.guard.request(new Termination(Termination.Kind.SHUTDOWN, "the supervisor was closed"));
            }
            return new Supervision(request, a, termGrace, setsid).call();
        } finally {
            active.remove(request.runId(), a);
            a.finished.countDown();
            if (a.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Bails a running run from any thread; it then ends with {@link Termination.Kind#BAILED}.
     *
     * @return false when no run with this id is running, its process has already exited by
     *     itself (the sweep after an exit is not a run to bail), or another stop (a limit, a
     *     shutdown) was decided first
     */
    public boolean bail(String runId) {
        ActiveRun a = active.get(Objects.requireNonNull(runId, "runId"));
        if (a == null) {
            return false;
        }
        return a.guard.request(new Termination(Termination.Kind.BAILED, "bailed"));
    }

    /**
     * Counts as activity for a running run's inactivity guard, like a new output line: a model
     * request the harness made (the metering proxy calls this), so a CLI that retries silently is
     * not stopped as idle.
     *
     * @return false when no run with this id is running
     */
    public boolean activity(String runId) {
        ActiveRun a = active.get(Objects.requireNonNull(runId, "runId"));
        if (a == null) {
            return false;
        }
        a.guard.activity();
        return true;
    }

    /**
     * Stops a running run from any thread, its whole process tree, for the given reason (e.g.
     * {@link Termination.Kind#BUDGET}); the first stop decided wins.
     *
     * @return false when no run with this id is running
     */
    public boolean stop(String runId, Termination termination) {
        Objects.requireNonNull(termination, "termination");
        ActiveRun a = active.get(Objects.requireNonNull(runId, "runId"));
        if (a == null) {
            return false;
        }
        a.guard.request(termination);
        return true;
    }

    /** The ids of the runs being supervised now. */
    public Set<String> running() {
        return Set.copyOf(active.keySet());
    }

    /** Stops every running run ({@link Termination.Kind#SHUTDOWN}) and waits for them; idempotent. */
    @Override
    public void close() {
        shutdown("the supervisor was closed");
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook is running or done
        }
    }

    private void shutdown(String reason) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Map.Entry<String, ActiveRun>> runs = new ArrayList<>(active.entrySet());
        for (Map.Entry<String, ActiveRun> e : runs) {
            e.getValue().guard.request(new Termination(Termination.Kind.SHUTDOWN, reason));
        }
        long deadline = System.nanoTime() + termGrace.plus(RunMarker.KILL_TIMEOUT).plus(DRAIN_TIMEOUT)
                .plusSeconds(1).toNanos();
        boolean interrupted = false;
        for (Map.Entry<String, ActiveRun> e : runs) {
            try {
                if (!e.getValue().finished.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    log.warn("run {} did not stop in time during shutdown; killing its processes directly", e.getKey());
                    RunMarker.stop(e.getKey(), e.getValue().scope, e.getValue().pid, Duration.ZERO);
                }
            } catch (InterruptedException ex) {
                interrupted = true;
                RunMarker.stop(e.getKey(), e.getValue().scope, e.getValue().pid, Duration.ZERO);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Builds a {@link ProcessSupervisor}. */
    public static final class Builder {
        private Duration termGrace = DEFAULT_TERM_GRACE;

        private Builder() {}

        /** Time between {@code TERM} and {@code KILL} when stopping a run; default {@link #DEFAULT_TERM_GRACE}. */
        public Builder termGrace(Duration value) {
            Objects.requireNonNull(value, "termGrace");
            if (value.isNegative()) {
                throw new IllegalArgumentException("termGrace must not be negative, was " + value);
            }
            this.termGrace = value;
            return this;
        }

        /**
         * @throws HarnessException when {@code setsid} (util-linux) is not installed
         */
        public ProcessSupervisor build() {
            Path setsid = SETSID_CANDIDATES.stream().filter(Files::isExecutable).findFirst()
                    .or(() -> Launch.onPath("setsid", System.getenv("PATH")))
                    .orElseThrow(() -> new HarnessException("harness4j starts each run in its own session with "
                            + "'setsid', which is not installed (looked in " + SETSID_CANDIDATES + " and PATH); "
                            + "install util-linux, e.g. apt-get install util-linux"));
            return new ProcessSupervisor(termGrace, setsid);
        }
    }
}
