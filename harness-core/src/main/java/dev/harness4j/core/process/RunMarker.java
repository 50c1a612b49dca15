package dev.harness4j.core.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
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

    /**
     * The variable that says which state dir a run's processes belong to: {@code
     * HARNESS4J_STATE=<scope>}, {@link #scopeOf(Path)} of the runner's state dir. Run ids are unique
     * within one state dir, not across them (a job's runs are {@code <job id>.<phase>.<n>}): two
     * state dirs on one machine running a job of the same id would otherwise stop each other's
     * processes at run end. A scoped stop ({@link #killAll(String, String, Duration)}) ends only
     * the processes carrying both the run id and the scope; an unscoped one ({@link
     * #killAll(String, Duration)}) every process carrying the run id.
     */
    public static final String SCOPE_ENV = "HARNESS4J_STATE";

    /** How long {@link #killAll} keeps sending {@code KILL} to survivors before giving up. */
    public static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private static final long POLL_MIN_MILLIS = 10;
    private static final long POLL_MAX_MILLIS = 100;

    private RunMarker() {}

    /**
     * The scope of a state dir: 16 hex digits of the SHA-256 of its real path (its absolute,
     * normalized path while it does not exist yet), the same for every runner on that dir.
     */
    public static String scopeOf(Path stateDir) {
        Objects.requireNonNull(stateDir, "stateDir");
        Path p = stateDir.toAbsolutePath().normalize();
        try {
            p = p.toRealPath();
        } catch (IOException e) {
            // not there yet: the normalized absolute path names it
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(p.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The live processes (zombies excluded) that carry the run's marker, in any scope; never this JVM. */
    public static List<ProcessHandle> find(String runId) {
        return find(runId, null);
    }

    /**
     * The live processes (zombies excluded) that carry the run's marker and, when {@code scope} is
     * not null, the scope {@link #SCOPE_ENV}; never this JVM.
     */
    public static List<ProcessHandle> find(String runId, String scope) {
        Objects.requireNonNull(runId, "runId");
        return ProcTable.scan(runId, scope, -1, 0).stream()
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
        return killAll(runId, null, grace);
    }

    /**
     * {@link #killAll(String, Duration)} of the processes that also carry {@code scope} (all that
     * carry the run id when it is null): a sweep of one state dir's run, which leaves a run of the
     * same id under another state dir alone.
     *
     * @return how many distinct processes were found
     */
    public static int killAll(String runId, String scope, Duration grace) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(grace, "grace");
        return stop(runId, scope, -1, 0, grace, pid -> false);
    }

    /**
     * Stops the run's processes found by marker and, when {@code leader > 0}, those in the
     * session or process group {@code leader}. Uninterruptible: an interrupt is kept for the
     * caller but does not cut the stop short.
     */
    static int stop(String runId, String scope, long leader, Duration grace) {
        return stop(runId, scope, leader, 0, grace);
    }

    /** {@link #stop(String, String, long, Duration)}, reading the environment only of processes started at or after {@code notBefore}. */
    static int stop(String runId, String scope, long leader, long notBefore, Duration grace) {
        return stop(runId, scope, leader, notBefore, grace, pid -> false);
    }

    /**
     * {@link #stop(String, String, long, long, Duration)}, sending no {@code TERM} to the processes
     * {@code spared} accepts, only the {@code KILL} after the grace when they are still there: a
     * sandbox's {@code bwrap}, which would take the whole sandbox down at once on {@code TERM}
     * while the harness inside gets the grace to exit by itself (and bwrap with it).
     */
    static int stop(String runId, String scope, long leader, long notBefore, Duration grace,
            java.util.function.LongPredicate spared) {
        boolean interrupted = Thread.interrupted();
        try {
            Set<Long> seen = new HashSet<>();
            List<Long> found = ProcTable.scan(runId, scope, leader, notBefore);
            if (found.isEmpty()) {
                return 0;
            }
            signal(found, false, seen, spared);
            long deadline = System.nanoTime() + grace.toNanos();
            long poll = POLL_MIN_MILLIS;
            while (System.nanoTime() < deadline) {
                interrupted |= pause(Math.min(poll, remainingMillis(deadline)));
                poll = Math.min(poll * 2, POLL_MAX_MILLIS);
                found = ProcTable.scan(runId, scope, leader, notBefore);
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
                found = ProcTable.scan(runId, scope, leader, notBefore);
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
    static boolean awaitGone(String runId, String scope, long leader, long notBefore, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long poll = 1;
        boolean interrupted = false;
        try {
            while (!ProcTable.scan(runId, scope, leader, notBefore).isEmpty()) {
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
