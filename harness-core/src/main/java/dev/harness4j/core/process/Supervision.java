package dev.harness4j.core.process;

import dev.harness4j.core.internal.util.PrivateFiles;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Termination;
import dev.harness4j.core.internal.capture.Redactor;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One supervised run, from writing its files to the last drained byte; used once. */
final class Supervision {
    private static final Logger log = LoggerFactory.getLogger(Supervision.class);

    /** How long a confined run's sandbox gets to vanish by itself before the sweep signals what is left. */
    private static final Duration SANDBOX_SETTLE = Duration.ofMillis(500);

    /** How long a stopped run's conversation may wait for the process to acknowledge a cancel. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(3);

    private final ProcessRequest request;
    private final ActiveRun active;
    private final Duration termGrace;
    private final Path setsid;
    private final Invocation inv;
    private final Instant startedAt = Instant.now();

    Supervision(ProcessRequest request, ActiveRun active, Duration termGrace, Path setsid) {
        this.request = request;
        this.active = active;
        this.termGrace = termGrace;
        this.setsid = setsid;
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
        if (problem == null && request.confinement() != null) {
            try {
                Files.createDirectories(request.confinement().home());
            } catch (IOException e) {
                problem = "could not create the sandbox's HOME " + request.confinement().home() + ": " + e;
            }
        }
        OutputStream out = null;
        OutputStream err = null;
        if (problem == null) {
            try {
                out = PrivateFiles.newOutputStream(request.stdoutFile());
                err = PrivateFiles.newOutputStream(request.stderrFile());
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
        ProcessBuilder pb = new ProcessBuilder(Launch.command(setsid, request)).directory(inv.workingDir().toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Conversation conversation = request.conversation();
        if (inv.stdin() == null && conversation == null) {
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
        long startTicks = ProcTable.startTime(pid); // nothing older can belong to the run
        log.debug("run {}: started {} as pid {} in {}", request.runId(), inv.command().get(0), pid, inv.workingDir());

        Set<String> secrets = new LinkedHashSet<>(request.secrets());
        secrets.addAll(inv.secretValues());
        Redactor redactor = Redactor.of(secrets);
        OutputTail stdout = new OutputTail(request.runId(), HarnessEvent.Stream.STDOUT, p.getInputStream(), out,
                transcript, redactor, request.listener(), active.guard::activity,
                conversation == null ? null : conversation::line);
        OutputTail stderr = new OutputTail(request.runId(), HarnessEvent.Stream.STDERR, p.getErrorStream(), err,
                transcript, redactor, request.listener(), active.guard::activity);
        thread("stdout", stdout).start();
        thread("stderr", stderr).start();
        if (conversation != null) {
            try {
                conversation.start(p.getOutputStream());
            } catch (IOException | RuntimeException e) {
                log.debug("run {}: the conversation could not start: {}", request.runId(), e.toString());
            }
        } else if (inv.stdin() != null) {
            thread("stdin", () -> writeStdin(p)).start();
        }
        p.onExit().thenRun(active.guard::wake);

        Termination stopped = watch(p, conversation);
        if (stopped == null) {
            stopped = active.guard.seal(); // a stop that raced the exit is honoured; later ones are refused
        }
        if (stopped != null && conversation != null) {
            conversation.cancel(termGrace.compareTo(CANCEL_WAIT) < 0 ? termGrace : CANCEL_WAIT);
        }
        if (stopped != null) {
            log.info("run {}: stopping pid {}: {}", request.runId(), pid, stopped.reason());
            RunMarker.stop(request.runId(), request.scope(), pid, startTicks, termGrace, sparedFromTerm());
        } else if (conversation != null && p.isAlive()) { // its conversation is over: the process has lingered long enough
            RunMarker.stop(request.runId(), request.scope(), pid, startTicks, termGrace, sparedFromTerm());
        }
        awaitExit(p);
        if (request.confinement() != null) { // the sandbox's init (and relay) die with it, a moment after bwrap
            RunMarker.awaitGone(request.runId(), request.scope(), pid, startTicks, SANDBOX_SETTLE);
        }
        int leftovers = RunMarker.stop(request.runId(), request.scope(), pid, startTicks, termGrace);
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

    /**
     * Which of the run's processes a stop sends no {@code TERM}: for a confined run, its {@code
     * bwrap} (outside, and the sandbox's init inside): on {@code TERM} the outer one dies at once
     * and the kernel kills the whole PID namespace with it, so the harness would get no grace.
     * Spared, they exit by themselves when the harness does, or get the {@code KILL} after the grace.
     */
    private java.util.function.LongPredicate sparedFromTerm() {
        Confinement c = request.confinement();
        if (c == null) {
            return pid -> false;
        }
        Path bwrap;
        try {
            bwrap = c.bwrap().toRealPath();
        } catch (IOException e) {
            bwrap = c.bwrap().toAbsolutePath().normalize();
        }
        String exe = bwrap.toString();
        return pid -> ProcessHandle.of(pid).flatMap(h -> h.info().command()).map(exe::equals).orElse(false);
    }

    /**
     * Waits for the process to exit (or, with a conversation, for it to finish and the process to
     * linger no longer than {@link Conversation#LINGER_MILLIS}) or a stop to be decided; returns the
     * stop, or null on exit.
     */
    private Termination watch(Process p, Conversation conversation) {
        long lingerUntil = 0;
        while (true) {
            if (!p.isAlive()) {
                return null;
            }
            if (conversation != null && conversation.finished()) {
                long now = System.nanoTime();
                if (lingerUntil == 0) {
                    lingerUntil = now + TimeUnit.MILLISECONDS.toNanos(Conversation.LINGER_MILLIS);
                } else if (now - lingerUntil >= 0) {
                    log.debug("run {}: the conversation is over and pid {} still runs; ending it", request.runId(), p.pid());
                    return null;
                }
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
            if (!tail.awaitDone(ProcessSupervisor.DRAIN_TIMEOUT)) {
                log.warn("run {}: output still open {} after every process of the run was gone "
                        + "(a process outside the run holds it); not waiting longer", request.runId(), ProcessSupervisor.DRAIN_TIMEOUT);
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
}
