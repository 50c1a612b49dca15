package dev.harness4j.core.process;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Termination;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
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
    /** Events carry at most this many bytes of a line; the transcript keeps it whole. */
    public static final int EVENT_LINE_MAX_BYTES = OutputTail.EVENT_LINE_MAX_BYTES;

    private static final List<Path> SETSID_CANDIDATES = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

    private final Duration termGrace;
    private final Path setsid;
    private final Map<String, Active> active = new ConcurrentHashMap<>();
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
        Active a = new Active(new RunGuard(request.limits()));
        if (active.putIfAbsent(request.runId(), a) != null) {
            throw new IllegalStateException("run " + request.runId() + " is already running; run ids must be unique");
        }
        try {
            if (closed.get()) {
                a.guard.request(new Termination(Termination.Kind.SHUTDOWN, "the supervisor was closed"));
            }
            return new Supervision(request, a).call();
        } finally {
            active.remove(request.runId(), a);
            a.finished.countDown();
            if (a.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Bails a running run from any thread; false when no run with this id is running. */
    public boolean bail(String runId) {
        Active a = active.get(Objects.requireNonNull(runId, "runId"));
        if (a == null) {
            return false;
        }
        a.guard.request(new Termination(Termination.Kind.BAILED, "bailed"));
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
        List<Map.Entry<String, Active>> runs = new ArrayList<>(active.entrySet());
        for (Map.Entry<String, Active> e : runs) {
            e.getValue().guard.request(new Termination(Termination.Kind.SHUTDOWN, reason));
        }
        long deadline = System.nanoTime() + termGrace.plus(RunMarker.KILL_TIMEOUT).plus(DRAIN_TIMEOUT)
                .plusSeconds(1).toNanos();
        boolean interrupted = false;
        for (Map.Entry<String, Active> e : runs) {
            try {
                if (!e.getValue().finished.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    log.warn("run {} did not stop in time during shutdown; killing its processes directly", e.getKey());
                    RunMarker.stop(e.getKey(), e.getValue().pid, Duration.ZERO);
                }
            } catch (InterruptedException ex) {
                interrupted = true;
                RunMarker.stop(e.getKey(), e.getValue().pid, Duration.ZERO);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The state of one running run shared with {@link #bail} and {@link #close}. */
    private static final class Active {
        final RunGuard guard;
        final CountDownLatch finished = new CountDownLatch(1);
        volatile long pid = -1;
        boolean interrupted;

        Active(RunGuard guard) {
            this.guard = guard;
        }
    }

    /** One run from start to the last drained byte. */
    private final class Supervision {
        private final ProcessRequest request;
        private final Active active;
        private final Invocation inv;
        private final Instant startedAt = Instant.now();

        Supervision(ProcessRequest request, Active active) {
            this.request = request;
            this.active = active;
            this.inv = request.invocation();
        }

        ProcessOutcome call() {
            Transcript transcript;
            try {
                createParents(request.transcriptFile(), request.stdoutFile(), request.stderrFile());
                transcript = new Transcript(request.transcriptFile());
            } catch (IOException e) {
                return ended(null, new Termination(Termination.Kind.START_FAILED,
                        "could not create the transcript " + request.transcriptFile() + ": " + e), -1);
            }
            try (transcript) {
                return supervise(transcript);
            }
        }

        private ProcessOutcome supervise(Transcript transcript) {
            Map<String, String> env = Launch.environment(request);
            String problem = Launch.writeFiles(request);
            if (problem == null) {
                problem = Launch.checkStartable(inv, env);
            }
            OutputStream out = null;
            OutputStream err = null;
            if (problem == null) {
                try {
                    out = Files.newOutputStream(request.stdoutFile());
                    err = Files.newOutputStream(request.stderrFile());
                } catch (IOException e) {
                    closeQuietly(out);
                    problem = "could not create the output file: " + e;
                }
            }
            if (problem != null) {
                transcript.note("could not start: " + problem);
                return ended(null, new Termination(Termination.Kind.START_FAILED, problem), -1);
            }
            Termination early = active.guard.check();
            if (early != null) {
                closeQuietly(out);
                closeQuietly(err);
                transcript.note("not started: " + early.reason());
                return ended(null, early, -1);
            }
            ProcessBuilder pb = new ProcessBuilder(Launch.command(setsid, inv)).directory(inv.workingDir().toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            if (inv.stdin() == null) {
                pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                closeQuietly(out);
                closeQuietly(err);
                String why = "could not start " + inv.command().get(0) + ": " + e.getMessage();
                transcript.note("could not start: " + why);
                return ended(null, new Termination(Termination.Kind.START_FAILED, why), -1);
            }
            long pid = p.pid();
            active.pid = pid;
            log.debug("run {}: started {} as pid {} in {}", request.runId(), inv.command().get(0), pid, inv.workingDir());

            Set<String> secrets = new LinkedHashSet<>(request.secrets());
            secrets.addAll(inv.secretValues());
            Redactor redactor = new Redactor(secrets);
            OutputTail stdout = new OutputTail(request.runId(), HarnessEvent.Stream.STDOUT, p.getInputStream(), out,
                    transcript, redactor, request.listener(), active.guard::activity);
            OutputTail stderr = new OutputTail(request.runId(), HarnessEvent.Stream.STDERR, p.getErrorStream(), err,
                    transcript, redactor, request.listener(), active.guard::activity);
            thread("stdout", stdout).start();
            thread("stderr", stderr).start();
            if (inv.stdin() != null) {
                thread("stdin", () -> writeStdin(p)).start();
            }
            p.onExit().thenRun(active.guard::wake);

            Termination stopped = watch(p);
            if (stopped != null) {
                log.info("run {}: stopping pid {}: {}", request.runId(), pid, stopped.reason());
                RunMarker.stop(request.runId(), pid, termGrace);
            }
            awaitExit(p);
            int leftovers = RunMarker.stop(request.runId(), pid, termGrace);
            if (leftovers > 0) {
                log.info("run {}: stopped {} process(es) the harness left behind", request.runId(), leftovers);
            }
            awaitDrained(stdout);
            awaitDrained(stderr);
            if (stopped != null) {
                transcript.note("stopped: " + stopped.reason());
            }
            Integer exit = p.isAlive() ? null : p.exitValue();
            String execFailure = Launch.execFailure(exit, stderr.firstLine());
            if (stopped == null && execFailure != null) {
                transcript.note("could not start: " + execFailure);
                return ended(null, new Termination(Termination.Kind.START_FAILED, execFailure), pid);
            }
            return ended(exit, stopped == null ? Termination.exited() : stopped, pid);
        }

        /** Waits for the process to exit or a stop to be decided; returns the stop, or null on exit. */
        private Termination watch(Process p) {
            while (true) {
                if (!p.isAlive()) {
                    return null;
                }
                Termination t = active.guard.check();
                if (t != null) {
                    return t;
                }
                try {
                    active.guard.await();
                } catch (InterruptedException e) {
                    active.interrupted = true;
                    active.guard.request(new Termination(Termination.Kind.SHUTDOWN, "the supervising thread was interrupted"));
                }
            }
        }

        private void awaitExit(Process p) {
            long deadline = System.nanoTime() + termGrace.plus(RunMarker.KILL_TIMEOUT).toNanos();
            while (p.isAlive() && System.nanoTime() < deadline) {
                try {
                    p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    active.interrupted = true;
                }
            }
            if (p.isAlive()) {
                log.warn("run {}: pid {} has not exited; killing it", request.runId(), p.pid());
                p.destroyForcibly();
            }
        }

        private void awaitDrained(OutputTail tail) {
            try {
                if (!tail.awaitDone(DRAIN_TIMEOUT)) {
                    log.warn("run {}: output still open {} after every process of the run was gone "
                            + "(a process outside the run holds it); not waiting longer", request.runId(), DRAIN_TIMEOUT);
                }
            } catch (InterruptedException e) {
                active.interrupted = true;
            }
        }

        private void writeStdin(Process p) {
            try (OutputStream in = p.getOutputStream()) {
                in.write(inv.stdin().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                log.debug("run {}: stdin closed before all of it was written: {}", request.runId(), e.toString());
            }
        }

        private Thread thread(String what, Runnable body) {
            Thread t = new Thread(body, "harness4j-" + request.runId() + "-" + what);
            t.setDaemon(true);
            return t;
        }

        private ProcessOutcome ended(Integer exit, Termination termination, long pid) {
            if (termination.kind() == Termination.Kind.START_FAILED) {
                log.warn("run {}: {}", request.runId(), termination.reason());
                touch(request.stdoutFile());
                touch(request.stderrFile());
            }
            return new ProcessOutcome(exit, termination, startedAt, Instant.now(), pid);
        }
    }

    private static void createParents(Path... files) throws IOException {
        for (Path f : files) {
            Path parent = f.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        }
    }

    private static void touch(Path file) {
        try {
            if (!Files.exists(file)) {
                createParents(file);
                Files.createFile(file);
            }
        } catch (IOException e) {
            log.debug("could not create {}: {}", file, e.toString());
        }
    }

    private static void closeQuietly(OutputStream s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing was written to it
            }
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
