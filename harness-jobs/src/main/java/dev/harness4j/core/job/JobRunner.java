package dev.harness4j.core.job;

import dev.harness4j.api.HarnessException;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.job.internal.ControlFile;
import dev.harness4j.core.job.internal.JobBook;
import dev.harness4j.core.job.internal.JobControl;
import dev.harness4j.core.job.internal.JobLoop;
import dev.harness4j.core.job.internal.JobRecovery;
import dev.harness4j.core.job.internal.JobRepo;
import dev.harness4j.core.job.internal.Transitions.JobSignal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs multi-phase jobs on a {@link HarnessRunner}: each phase one run in the job's own
 * repository ({@code <stateDir>/jobs/<id>/repo}, branch {@code harness4j/job/<id>}), which
 * persists across phases and JVM restarts; {@code checkpoint.json} rewritten atomically after
 * every move and {@code events.jsonl} appended.
 *
 * <pre>{@code
 * try (JobRunner jobs = JobRunner.builder(runner).listener(System.out::println).build()) {
 *     JobStatus end = jobs.run(plan);              // blocks until completed, failed, paused or cancelled
 *     // after a crash, in a new JVM:
 *     JobStatus again = jobs.resume(end.jobId());  // a phase that was running is run again from the last commit
 * }
 * }</pre>
 *
 * <p>A phase that ends rate-limited (or out of quota) puts the job in {@link JobState#PAUSED_QUOTA}
 * until the reset, consuming no attempt, and {@link #run}/{@link #resume} wait and go on by
 * themselves; when the reset is beyond {@link JobPlan#maxQuotaWait()} the phase's next fallback
 * provider is tried instead (each switch is an event). With {@link Builder#healthChecks} a phase's
 * provider is health-checked before the phase starts and an unhealthy one is replaced by the next
 * healthy fallback the same way. {@link #pause} and {@link #cancel} work
 * from any thread, and from another process on the same state dir (through a request file the
 * running JVM polls every {@link #DEFAULT_CONTROL_POLL}); a running phase is stopped through the
 * runner's guard and its partial work reset.
 */
public final class JobRunner implements AutoCloseable {
    /** How often a running job looks for a pause or cancel asked by another process: 300 ms. */
    public static final Duration DEFAULT_CONTROL_POLL = Duration.ofMillis(300);
    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final HarnessRunner runner;
    private final JobListener listener;
    private final Path jobsDir;
    private final ConcurrentMap<String, Active> active = new ConcurrentHashMap<>();
    private final ScheduledExecutorService poller;
    private final SecureRandom random = new SecureRandom();
    private final dev.harness4j.core.provider.Providers healthProviders;

    private record Active(JobControl control, Path dir) {}

    private JobRunner(Builder b) {
        this.runner = b.runner;
        this.listener = b.listener;
        this.healthProviders = b.healthProviders;
        this.jobsDir = runner.stateDir().resolve("jobs");
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "harness4j-job-control");
            t.setDaemon(true);
            return t;
        });
        long ms = b.controlPoll.toMillis();
        poller.scheduleWithFixedDelay(this::pollRequests, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** A builder for a job runner on this harness runner (its state dir, adapters and providers). */
    public static Builder builder(HarnessRunner runner) {
        return new Builder(runner);
    }

    /**
     * Creates a job and runs it; blocks until it completes, fails, is paused or cancelled (a quota
     * pause is waited out).
     *
     * @throws InvalidJobPlanException before anything is written when a phase's harness is unknown
     *     or not installed, its provider (or a fallback's) cannot be resolved or is one the harness
     *     cannot run on, its model is not in the provider's catalogue, or the baseline or ref is not
     *     there; every problem is listed ({@code PlanCheck.against}); a model no catalogue can
     *     confirm is logged as a warning
     * @throws JobException {@code EXISTS} when a job with the plan's id exists
     */
    public JobStatus run(JobPlan plan) {
        Objects.requireNonNull(plan, "plan");
        JobPlan p = plan.id() != null ? plan : plan.withId(newJobId());
        Preflight.Findings findings = PlanCheck.against(p, Preflight.of(runner));
        List<String> problems = new ArrayList<>(findings.problems());
        findings.warnings().forEach(w -> LOG.warn("job {}: {}", p.id(), w));
        String commit = null;
        try {
            commit = JobRepo.resolve(p.baseline(), p.ref());
        } catch (RuntimeException e) {
            problems.add("the baseline " + p.baseline() + (p.ref() != null ? " at " + p.ref() : "")
                    + " is no git repository with that commit: " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new InvalidJobPlanException(problems);
        }
        Path dir = jobsDir.resolve(p.id());
        if (Files.exists(dir)) {
            throw new JobException(p.id(), JobException.Reason.EXISTS, "job " + p.id() + " exists already in "
                    + dir + "; resume it (JobRunner.resume) or give the plan another id");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new JobException(p.id(), JobException.Reason.IO, "could not create the job's directory " + dir, e);
        }
        return owned(p.id(), dir, (control) -> {
            JobRepo repo = new JobRepo(dir.resolve("repo"), branchOf(p.id()));
            String base;
            try {
                base = JobRepo.resolve(p.baseline(), p.ref());
                repo.create(p.baseline(), base);
            } catch (RuntimeException e) {
                SafeDelete.deleteBelow(jobsDir, dir); // nothing half-made stays
                throw new JobException(p.id(), JobException.Reason.IO, "could not make the job's repository "
                        + repo.dir() + " from " + p.baseline() + ": " + e.getMessage(), e);
            }
            JobBook book = JobBook.create(dir, p, branchOf(p.id()), base, listener);
            book.move(JobSignal.START, "started");
            return loop(book, repo, control);
        });
    }

    /**
     * Goes on with a job from its checkpoint: after a crash, a phase that was running is reset to
     * the commit the phases before it left (survivors of its run killed, its run dir removed) and
     * run again; a paused job is resumed; a job paused for a quota waits for its reset (at once when
     * it is past). Blocks like {@link #run}.
     *
     * @throws JobException {@code UNKNOWN_JOB}, {@code FINISHED}, {@code BUSY}, or {@code
     *     WORKSPACE_LOST} (the job is marked failed; its checkpoint, events and results stay)
     */
    public JobStatus resume(String jobId) {
        Path dir = existing(jobId);
        return owned(jobId, dir, control -> {
            JobBook book = load(jobId, dir);
            if (book.state().isFinished()) {
                throw new JobException(jobId, JobException.Reason.FINISHED, "job " + jobId + " is "
                        + book.state().wireName() + "; there is nothing to resume (see " + dir.resolve("summary.json") + ")");
            }
            JobRepo repo = new JobRepo(dir.resolve("repo"), book.branch());
            new JobRecovery(book, repo).recover();
            if (book.state() == JobState.CREATED || book.state() == JobState.PAUSED) {
                book.move(book.state() == JobState.CREATED ? JobSignal.START : JobSignal.RESUME, "resumed");
            } // running (its JVM died) goes on; paused-quota waits for its reset, as the provider asked
            return loop(book, repo, control);
        });
    }

    /**
     * Pauses a job: its running phase is stopped through the guard and reset, to run again on
     * {@link #resume}. Takes effect at once when this JVM runs the job or no process does; when
     * another process runs it, that process applies it within {@link #DEFAULT_CONTROL_POLL}.
     *
     * @throws JobException {@code UNKNOWN_JOB}, or {@code FINISHED}
     */
    public void pause(String jobId) {
        control(jobId, JobControl.Request.PAUSE);
    }

    /** Cancels a job like {@link #pause}; its pending phases are skipped, its summary written. */
    public void cancel(String jobId) {
        control(jobId, JobControl.Request.CANCEL);
    }

    /** The job as its last checkpoint has it. @throws JobException {@code UNKNOWN_JOB} */
    public JobStatus status(String jobId) {
        Path dir = existing(jobId);
        try {
            return JobBook.readStatus(dir);
        } catch (IOException | RuntimeException e) {
            throw new JobException(jobId, JobException.Reason.IO, "could not read " + dir.resolve(JobBook.CHECKPOINT)
                    + ": " + e.getMessage(), e);
        }
    }

    /** The ids of the jobs in the state dir, sorted. */
    public List<String> jobIds() {
        if (!Files.isDirectory(jobsDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(jobsDir)) {
            return s.filter(d -> Files.isRegularFile(d.resolve(JobBook.CHECKPOINT)))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + jobsDir, e);
        }
    }

    /** Stops polling for requests; jobs running on other threads go on until their runner is closed. */
    @Override
    public void close() {
        poller.shutdownNow();
    }

    private void control(String jobId, JobControl.Request request) {
        Path dir = existing(jobId);
        Active a = active.get(jobId);
        if (a != null) {
            a.control().request(request);
            return;
        }
        JobStatus s = status(jobId);
        if (s.state().isFinished()) {
            throw new JobException(jobId, JobException.Reason.FINISHED, "job " + jobId + " is "
                    + s.state().wireName() + "; it cannot be " + (request == JobControl.Request.PAUSE ? "paused" : "cancelled"));
        }
        try (FileChannel ch = ControlFile.openLock(dir)) {
            FileLock lock = ControlFile.tryLock(ch);
            if (lock == null) { // another process runs it: leave the request for its poller
                ControlFile.leave(dir, request);
                return;
            }
            try {
                JobBook book = load(jobId, dir);
                JobRepo repo = new JobRepo(dir.resolve("repo"), book.branch());
                new JobRecovery(book, repo).recoverQuietly();
                JobControl c = new JobControl(runner::bail);
                c.request(request);
                new JobLoop(runner, book, repo, c, healthProviders).run();
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new JobException(jobId, JobException.Reason.IO, "could not " + request.name().toLowerCase()
                    + " job " + jobId + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException("interrupted while " + request.name().toLowerCase() + "ing job " + jobId, e);
        }
    }

    @FunctionalInterface
    private interface Body {
        JobState run(JobControl control) throws InterruptedException;
    }

    /** Runs {@code body} holding the job's lock (against this JVM's threads and other processes). */
    private JobStatus owned(String jobId, Path dir, Body body) {
        JobControl control = new JobControl(runner::bail);
        Active mine = new Active(control, dir);
        if (active.putIfAbsent(jobId, mine) != null) {
            throw busy(jobId);
        }
        try (FileChannel ch = ControlFile.openLock(dir)) {
            FileLock lock = ControlFile.tryLock(ch);
            if (lock == null) {
                throw busy(jobId);
            }
            try {
                ControlFile.clear(dir); // a request nobody took, from before
                body.run(control);
                return status(jobId);
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new JobException(jobId, JobException.Reason.IO, "job " + jobId + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return status(jobId);
        } finally {
            active.remove(jobId, mine);
        }
    }

    private JobState loop(JobBook book, JobRepo repo, JobControl control) throws InterruptedException {
        return new JobLoop(runner, book, repo, control, healthProviders).run();
    }

    private static JobException busy(String jobId) {
        return new JobException(jobId, JobException.Reason.BUSY, "job " + jobId + " is being run by another thread "
                + "or process; pause or cancel it, or wait for it to stop");
    }

    private JobBook load(String jobId, Path dir) {
        try {
            return JobBook.load(dir, listener);
        } catch (IOException | RuntimeException e) {
            throw new JobException(jobId, JobException.Reason.IO, "could not read the checkpoint of job " + jobId
                    + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    private Path existing(String jobId) {
        Objects.requireNonNull(jobId, "jobId");
        Path dir = dirOf(jobId);
        if (!Files.isRegularFile(dir.resolve(JobBook.CHECKPOINT))) {
            throw new JobException(jobId, JobException.Reason.UNKNOWN_JOB, "no job " + jobId + " in " + jobsDir
                    + "; known jobs: " + jobIds());
        }
        return dir;
    }

    private Path dirOf(String jobId) {
        if (!PlanCheck.JOB_ID.matcher(jobId).matches()) {
            throw new JobException(jobId, JobException.Reason.UNKNOWN_JOB, "'" + jobId + "' is no job id (they match "
                    + PlanCheck.JOB_ID + "); known jobs: " + jobIds());
        }
        return jobsDir.resolve(jobId);
    }

    private void pollRequests() {
        for (Active a : active.values()) {
            try {
                ControlFile.take(a.dir()).ifPresent(a.control()::request);
            } catch (IOException | RuntimeException ex) {
                // the next poll tries again
            }
        }
    }

    private static String branchOf(String jobId) {
        return "harness4j/job/" + jobId;
    }

    private static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    private String newJobId() {
        byte[] b = new byte[3];
        random.nextBytes(b);
        return "job-" + ZonedDateTime.now(ZoneOffset.UTC).format(ID_TIME) + "-" + HexFormat.of().formatHex(b);
    }

    /** Builds a {@link JobRunner}. */
    public static final class Builder {
        private final HarnessRunner runner;
        private JobListener listener = JobListener.NONE;
        private Duration controlPoll = DEFAULT_CONTROL_POLL;
        private dev.harness4j.core.provider.Providers healthProviders;

        private Builder(HarnessRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        /** Receives every job's events; default none. */
        public Builder listener(JobListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /** How often requests from other processes are looked for; default {@link #DEFAULT_CONTROL_POLL}. */
        public Builder controlPoll(Duration value) {
            this.controlPoll = positive(value, "controlPoll");
            return this;
        }

        /**
         * The providers whose health is checked before each phase of a job that asks for it
         * ({@link JobPlan#healthCheckTimeout()}, on by default): an unhealthy provider is replaced by
         * the phase's next healthy fallback (every failed check and switch an event, the switch in
         * the checkpoint); when none is healthy the phase fails naming each provider and why. A
         * CLI-login provider, or one these providers do not know, is not checked. Default none:
         * no health checks.
         */
        public Builder healthChecks(dev.harness4j.core.provider.Providers value) {
            this.healthProviders = Objects.requireNonNull(value, "providers");
            return this;
        }

        public JobRunner build() {
            return new JobRunner(this);
        }
    }
}
