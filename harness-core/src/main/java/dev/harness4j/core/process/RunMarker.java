package dev.harness4j.core.process;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The environment variable that marks every process of a run, and the means to find and stop
 * them by it. A process that double-forks and calls {@code setsid} leaves the run's process
 * group, but it keeps its environment: scanning {@code /proc/*}{@code /environ} still finds it.
 *
 * <pre>{@code
 * assertThat(RunMarker.find(runId)).isEmpty();          // nothing of the run survived
 * int stopped = RunMarker.killAll(runId, Duration.ofSeconds(5));   // a sweep after a crash
 * }</pre>
 */
public final class RunMarker {
    private static final Logger log = LoggerFactory.getLogger(RunMarker.class);

    /** The variable every spawned process carries: {@code HARNESS4J_RUN_ID=<runId>}. */
    public static final String ENV = "HARNESS4J_RUN_ID";

    /** How long {@link #killAll} keeps sending {@code KILL} to survivors before giving up. */
    public static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private static final long POLL_MIN_MILLIS = 10;
    private static final long POLL_MAX_MILLIS = 100;

    private RunMarker() {}

    /** The live processes (zombies excluded) that carry the run's marker; never this JVM. */
    public static List<ProcessHandle> find(String runId) {
        Objects.requireNonNull(runId, "runId");
        return ProcTable.scan(runId, -1).stream()
                .map(ProcessHandle::of)
                .flatMap(Optional::stream)
                .collect(Collectors.toList());
    }

    /**
     * Stops every process that carries the run's marker: {@code TERM}, up to {@code grace} for
     * them to exit, then {@code KILL} until none is left (at most {@link #KILL_TIMEOUT}).
     *
     * @return how many distinct processes were found
     */
    public static int killAll(String runId, Duration grace) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(grace, "grace");
        return stop(runId, -1, grace);
    }

    /**
     * Stops the run's processes found by marker and, when {@code leader > 0}, those in the
     * session or process group {@code leader}. Uninterruptible: an interrupt is kept for the
     * caller but does not cut the stop short.
     */
    static int stop(String runId, long leader, Duration grace) {
        return stop(runId, leader, 0, grace);
    }

    /** {@link #stop(String, long, Duration)}, reading the environment only of processes started at or after {@code notBefore}. */
    static int stop(String runId, long leader, long notBefore, Duration grace) {
        return stop(runId, leader, notBefore, grace, pid -> false);
    }

    /**
     * {@link #stop(String, long, long, Duration)}, sending no {@code TERM} to the processes
     * {@code spared} accepts, only the {@code KILL} after the grace when they are still there: a
     * sandbox's {@code bwrap}, which would take the whole sandbox down at once on {@code TERM}
     * while the harness inside gets the grace to exit by itself (and bwrap with it).
     */
    static int stop(String runId, long leader, long notBefore, Duration grace, java.util.function.LongPredicate spared) {
        boolean interrupted = Thread.interrupted();
        try {
            Set<Long> seen = new HashSet<>();
            List<Long> found = ProcTable.scan(runId, leader, notBefore);
            if (found.isEmpty()) {
                return 0;
            }
            signal(found, false, seen, spared);
            long deadline = System.nanoTime() + grace.toNanos();
            long poll = POLL_MIN_MILLIS;
            while (System.nanoTime() < deadline) {
                interrupted |= pause(Math.min(poll, remainingMillis(deadline)));
                poll = Math.min(poll * 2, POLL_MAX_MILLIS);
                found = ProcTable.scan(runId, leader, notBefore);
                if (found.isEmpty()) {
                    return seen.size();
                }
                List<Long> fresh = found.stream().filter(p -> !seen.contains(p)).collect(Collectors.toList());
                signal(fresh, false, seen, spared);
            }
            long killDeadline = System.nanoTime() + KILL_TIMEOUT.toNanos();
            while (!found.isEmpty()) {
                log.info("run {}: {} process(es) still alive after {} ms grace, sending KILL: {}",
                        runId, found.size(), grace.toMillis(), found);
                signal(found, true, seen, spared);
                interrupted |= pause(POLL_MIN_MILLIS);
                found = ProcTable.scan(runId, leader, notBefore);
                if (System.nanoTime() > killDeadline && !found.isEmpty()) {
                    log.error("run {}: {} process(es) survived KILL for {} ms (uninterruptible?): {}",
                            runId, found.size(), KILL_TIMEOUT.toMillis(), found);
                    break;
                }
            }
            return seen.size();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits, without signalling, until nothing of the run is left (looking after 1 ms, then
     * doubling up to 16 ms), at most {@code timeout}; whether nothing is. For what is known to be
     * on its way out: a sandbox's init and meter relay, which the kernel kills with the sandbox a
     * moment after its outer {@code bwrap} has exited.
     */
    static boolean awaitGone(String runId, long leader, long notBefore, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long poll = 1;
        boolean interrupted = false;
        try {
            while (!ProcTable.scan(runId, leader, notBefore).isEmpty()) {
                if (System.nanoTime() >= deadline) {
                    return false;
                }
                interrupted |= pause(Math.min(poll, remainingMillis(deadline)));
                poll = Math.min(poll * 2, 16);
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void signal(List<Long> pids, boolean kill, Set<Long> seen, java.util.function.LongPredicate spared) {
        for (long pid : pids) {
            seen.add(pid);
            if (!kill && spared.test(pid)) {
                continue;
            }
            ProcessHandle.of(pid).ifPresent(h -> {
                if (kill) {
                    h.destroyForcibly();
                } else {
                    h.destroy();
                }
            });
        }
    }

    private static long remainingMillis(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    /** Sleeps; returns whether an interrupt arrived (which is then kept for later). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }
}
