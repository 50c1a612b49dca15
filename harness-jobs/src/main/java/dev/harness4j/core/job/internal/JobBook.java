package dev.harness4j.core.job.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.job.internal.Transitions.JobSignal;
import dev.harness4j.core.job.internal.Transitions.PhaseSignal;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobListener;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.JobStatus;
import dev.harness4j.core.job.PhaseSpec;
import dev.harness4j.core.job.PhaseState;
import dev.harness4j.core.job.PhaseStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's state in memory and on disk: every move goes through {@link Transitions}, then {@code
 * checkpoint.json} is rewritten atomically (tmp + rename) and an event appended to {@code
 * events.jsonl}. An illegal move throws before anything changes. Thread-safe (one lock).
 */
public final class JobBook {
    private static final Logger log = LoggerFactory.getLogger(JobBook.class);
    public static final String CHECKPOINT = "checkpoint.json";
    public static final String EVENTS = "events.jsonl";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    final String jobId;
    final Path dir;
    final JobPlan plan;
    final String branch;
    final String baseCommit;
    String head;
    JobState state = JobState.CREATED;
    String reason;
    Instant resumeAt;
    final Instant createdAt;
    Instant updatedAt;
    final Map<String, PhaseBook> phases = new LinkedHashMap<>();
    private volatile JobListener listener = JobListener.NONE;

    JobBook(String jobId, Path dir, JobPlan plan, String branch, String baseCommit, String head, Instant createdAt) {
        this.jobId = jobId;
        this.dir = dir;
        this.plan = plan;
        this.branch = branch;
        this.baseCommit = baseCommit;
        this.head = head;
        this.createdAt = createdAt;
        this.updatedAt = createdAt;
        for (PhaseSpec p : plan.runOrder()) {
            phases.put(p.id(), new PhaseBook(p.id(), plan.harnessOf(p), plan.providerOf(p), plan.modelOf(p)));
        }
    }

    /** A new job's book; its first checkpoint is written (state created). */
    public static JobBook create(Path dir, JobPlan plan, String branch, String baseCommit, JobListener listener) {
        JobBook b = new JobBook(plan.id(), dir, plan, branch, baseCommit, baseCommit, Instant.now());
        b.listener = listener;
        synchronized (b) {
            b.write();
            b.event(JobEvent.Kind.JOB_STATE, null, JobState.CREATED.wireName(), null,
                    b.phases.size() + " phases from " + plan.baseline() + " at " + baseCommit);
        }
        return b;
    }

    /** Reads a job's book from its checkpoint. */
    public static JobBook load(Path dir, JobListener listener) throws IOException {
        JobBook b = CheckpointJson.read(MAPPER.readTree(dir.resolve(CHECKPOINT).toFile()), dir);
        b.listener = listener;
        return b;
    }

    public String jobId() {
        return jobId;
    }

    public JobPlan plan() {
        return plan;
    }

    public Path dir() {
        return dir;
    }

    public String branch() {
        return branch;
    }

    public synchronized String head() {
        return head;
    }

    public synchronized JobState state() {
        return state;
    }

    public synchronized Instant resumeAt() {
        return resumeAt;
    }

    public synchronized List<PhaseBook> phases() {
        return new ArrayList<>(phases.values());
    }

    public synchronized PhaseBook phase(String id) {
        return phases.get(id);
    }

    void listener(JobListener value) {
        this.listener = value;
    }

    /** Moves the job; throws {@link IllegalTransitionException} and changes nothing when illegal. */
    public synchronized JobState move(JobSignal signal, String why) {
        JobState to = Transitions.next(jobId, state, signal);
        state = to;
        reason = why;
        if (to != JobState.PAUSED_QUOTA) {
            resumeAt = null;
        }
        write();
        event(JobEvent.Kind.JOB_STATE, null, to.wireName(), null, why);
        return to;
    }

    /** Moves the job to paused-quota until {@code until}. */
    public synchronized void quotaPause(Instant until, String why) {
        JobState to = Transitions.next(jobId, state, JobSignal.QUOTA);
        state = to;
        reason = why;
        resumeAt = until;
        write();
        event(JobEvent.Kind.JOB_STATE, null, to.wireName(), null, why + "; resumes at " + until);
    }

    /** Moves a phase; throws {@link IllegalTransitionException} and changes nothing when illegal. */
    public synchronized PhaseState move(PhaseBook p, PhaseSignal signal, String why) {
        PhaseState to = Transitions.next(jobId, p.id, p.state, signal);
        p.state = to;
        p.reason = why;
        write();
        event(JobEvent.Kind.PHASE_STATE, p.id, to.wireName(), p.lastRun() != null ? p.lastRun().runId() : null, why);
        return to;
    }

    /**
     * Completes a running phase in one checkpoint write: its commit becomes the job's head, its
     * report's next-phase notes are kept for the phases after it.
     */
    public synchronized void completePhase(PhaseBook p, String commit, dev.harness4j.api.PhaseReport report) {
        PhaseState to = Transitions.next(jobId, p.id, p.state, PhaseSignal.COMPLETE);
        p.state = to;
        p.reason = null;
        p.commit = commit;
        head = commit;
        if (report != null) {
            p.notes = report.nextPhaseNotes();
            p.report = new PhaseBook.Report(report.completed(), report.committed(), report.commitMessage(),
                    report.summary(), report.nextPhaseNotes(), report.blockers(),
                    report.source().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        }
        write();
        event(JobEvent.Kind.PHASE_STATE, p.id, to.wireName(), p.lastRun() != null ? p.lastRun().runId() : null,
                "head " + commit + (p.notes != null ? "; it left notes for the next phases" : ""));
    }

    /** Changes the book by {@code change} (no state move), then writes the checkpoint. */
    public synchronized void update(Runnable change) {
        change.run();
        write();
    }

    /** Appends an event to {@code events.jsonl} and tells the listener. */
    public synchronized void event(JobEvent.Kind kind, String phase, String state, String runId, String detail) {
        JobEvent e = new JobEvent(jobId, Instant.now(), kind, phase, state, runId, detail);
        ObjectNode n = MAPPER.createObjectNode();
        n.put("at", e.at().toString());
        n.put("kind", kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        n.put("phase", phase);
        n.put("state", state);
        n.put("run_id", runId);
        n.put("detail", detail);
        try (FileChannel ch = FileChannel.open(dir.resolve(EVENTS), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap((MAPPER.writeValueAsString(n) + "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException ex) {
            throw new UncheckedIOException("could not append to " + dir.resolve(EVENTS), ex);
        }
        try {
            listener.onEvent(e);
        } catch (RuntimeException ex) {
            log.warn("a JobListener threw on {}; ignored", e, ex);
        }
    }

    /** Writes {@code checkpoint.json} atomically: a temporary file, forced to disk, renamed over it. */
    private void write() {
        updatedAt = Instant.now();
        Path target = dir.resolve(CHECKPOINT);
        Path tmp = dir.resolve(CHECKPOINT + ".tmp");
        try {
            byte[] bytes = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(CheckpointJson.write(this));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the checkpoint " + target, e);
        }
    }

    /** The book as a public snapshot. */
    public synchronized JobStatus status() {
        List<PhaseStatus> ps = new ArrayList<>();
        for (PhaseBook p : phases.values()) {
            PhaseBook.RunEntry last = p.lastRun();
            ps.add(new PhaseStatus(p.id, p.state, p.harness, p.provider, p.model, p.attempts,
                    p.runs.stream().map(PhaseBook.RunEntry::runId).toList(), p.commit, p.notes,
                    last != null ? last.outcome() : null, p.reason, last != null ? last.resultDir() : null));
        }
        return new JobStatus(jobId, state, reason, resumeAt, dir, branch, baseCommit, head, ps, createdAt, updatedAt);
    }

    /** Reads a job's checkpoint as a status, without keeping a book. */
    public static JobStatus readStatus(Path dir) throws IOException {
        JsonNode n = MAPPER.readTree(dir.resolve(CHECKPOINT).toFile());
        return CheckpointJson.read(n, dir).status();
    }
}
