package dev.harness4j.core.job.internal;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.job.internal.Transitions.JobSignal;
import dev.harness4j.core.job.internal.Transitions.PhaseSignal;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.PhaseSpec;
import dev.harness4j.core.job.PhaseState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a job's pending phases one at a time until it completes, fails, is paused or cancelled:
 * each phase one {@link HarnessRunner} run with the job's repository as baseline, its commits
 * fetched back before the run's checkout is deleted, the branch advanced and the checkpoint
 * written in one step when it completed.
 */
public final class JobLoop {
    /** How long a rate limit without a reset time is waited for: 60 s. */
    public static final Duration UNKNOWN_RESET_WAIT = Duration.ofSeconds(60);

    private final HarnessRunner runner;
    private final JobBook book;
    private final JobRepo repo;
    private final JobControl control;
    private final HealthGate health;

    public JobLoop(HarnessRunner runner, JobBook book, JobRepo repo, JobControl control) {
        this(runner, book, repo, control, null);
    }

    /** @param providers whose health is checked before each phase (when the plan asks); {@code null}: none */
    public JobLoop(HarnessRunner runner, JobBook book, JobRepo repo, JobControl control,
            dev.harness4j.core.provider.Providers providers) {
        this.runner = runner;
        this.book = book;
        this.repo = repo;
        this.control = control;
        this.health = HealthGate.of(providers, book.plan().healthCheckTimeout());
    }

    /** Runs until the job stops; returns its state then. */
    public JobState run() throws InterruptedException {
        while (true) {
            JobState s = book.state();
            if (s.isFinished()) {
                return s;
            }
            JobControl.Request r = control.requested();
            if (r != null && !(r == JobControl.Request.PAUSE && s == JobState.PAUSED)) {
                return obey(r, null);
            }
            if (s == JobState.PAUSED) {
                return s;
            }
            if (s == JobState.PAUSED_QUOTA) {
                book.event(JobEvent.Kind.QUOTA_WAIT, null, null, null, "waiting until " + book.resumeAt());
                r = control.awaitUntil(book.resumeAt());
                if (r != null) {
                    return obey(r, null);
                }
                book.move(JobSignal.RESUME, "the rate limit reset at " + book.resumeAt());
                continue;
            }
            PhaseBook next = book.phases().stream().filter(p -> p.state() == PhaseState.PENDING).findFirst().orElse(null);
            if (next == null) {
                return finish();
            }
            JobState stopped = runPhase(next);
            if (stopped != null) {
                return stopped;
            }
        }
    }

    private JobState finish() {
        book.move(JobSignal.COMPLETE, "every phase completed");
        JobFinish.pushAndSummarize(book, repo);
        return book.state();
    }

    /** Applies a pause or cancel; {@code running} is the phase whose run was stopped, or null. */
    private JobState obey(JobControl.Request r, PhaseBook running) {
        if (running != null && running.state() == PhaseState.RUNNING) {
            resetPhase(running, (r == JobControl.Request.CANCEL ? "cancelled" : "paused") + " by the user");
        }
        if (r == JobControl.Request.CANCEL) {
            skipPending("the job was cancelled");
            book.move(JobSignal.CANCEL, "cancelled by the user");
            JobFinish.pushAndSummarize(book, repo);
        } else {
            book.move(JobSignal.PAUSE, "paused by the user");
        }
        return book.state();
    }

    void skipPending(String why) {
        for (PhaseBook p : book.phases()) {
            if (p.state() == PhaseState.PENDING) {
                book.move(p, PhaseSignal.SKIP, why);
            }
        }
    }

    /** Puts a running phase back to pending; its partial work stays only in its run ref and the events. */
    void resetPhase(PhaseBook p, String why) {
        PhaseBook.RunEntry last = p.lastRun();
        String partial = last != null ? repo.commitOf(JobRepo.runRef(last.runId())) : null;
        book.event(JobEvent.Kind.PHASE_RESET, p.id(), null, last != null ? last.runId() : null, why
                + "; reset to " + book.head() + (partial != null && !partial.equals(book.head())
                        ? " (its partial work is kept as " + JobRepo.runRef(last.runId()) + " = " + partial + ")"
                        : " (it left no commit)"));
        book.move(p, PhaseSignal.RESET, why);
        repo.resetTo(book.head());
    }

    /**
     * The run whose kept session a {@code continue_session} phase's first run continues: the run
     * that completed the phase it depends on, when its workspace was kept at the job's head; else
     * {@code null} (the phase runs afresh), with an event saying why.
     */
    private String sessionToContinue(PhaseBook p, PhaseSpec spec) {
        if (!spec.continueSession() || p.runs.size() != 1) { // only the phase's first run (just booked)
            return null;
        }
        List<String> deps = book.plan().dependenciesOf(p.id());
        PhaseBook.RunEntry before = deps.size() == 1 ? book.phase(deps.get(0)).lastRun() : null;
        String why;
        if (before == null) {
            why = "the phase it depends on has no run";
        } else {
            var kept = runner.keptWorkspace(before.runId());
            if (kept.isEmpty()) {
                why = "run " + before.runId() + " has no kept workspace (the runner keeps none without"
                        + " keepWorkspace(Duration); a harness that cannot resume reports no session)";
            } else if (kept.get().expired(Instant.now())) {
                why = "run " + before.runId() + "'s kept workspace expired at " + kept.get().keptUntil();
            } else if (!kept.get().harness().equals(p.harness)) {
                why = "run " + before.runId() + " ran harness " + kept.get().harness() + ", this phase runs " + p.harness;
            } else if (!kept.get().commit().equals(book.head())) {
                why = "run " + before.runId() + "'s kept workspace ends at " + kept.get().commit()
                        + ", not at the job's head " + book.head();
            } else {
                book.event(JobEvent.Kind.NOTE, p.id(), null, p.lastRun().runId(), "continues the session of run "
                        + before.runId() + " (" + kept.get().sessionId() + ")");
                return before.runId();
            }
        }
        book.event(JobEvent.Kind.NOTE, p.id(), null, p.lastRun().runId(), "runs afresh, not continuing a session: " + why);
        return null;
    }

    /** Runs one phase's run and books its end; returns the state to stop in, or null to go on. */
    private JobState runPhase(PhaseBook p) {
        PhaseSpec spec = book.plan().phase(p.id());
        String unhealthy = health.pass(book, p, spec);
        if (unhealthy != null) {
            failPhase(p, unhealthy);
            return null;
        }
        repo.resetTo(book.head());
        String runId = book.jobId() + "." + p.id() + "." + (p.runs.size() + 1);
        book.update(() -> p.runs.add(PhaseBook.RunEntry.started(runId, p.provider(), p.model(), Instant.now())));
        book.move(p, PhaseSignal.START, "run " + runId + " on " + p.harness + " / " + p.provider()
                + (p.model() != null ? " / " + p.model() : ""));
        RunSpec runSpec = RunSpec.builder(p.harness, p.provider()).model(p.model())
                .prompt(PhasePrompt.frame(book, spec)).baseline(repo.dir()).ref(book.branch())
                .task(book.plan().task() != null ? book.plan().task() : "job-" + book.jobId())
                .limits(spec.limits()).build();
        for (var o : spec.options().entrySet()) {
            runSpec = runSpec.toBuilder().option(o.getKey(), o.getValue()).build();
        }
        if (!spec.mcpServers().isEmpty()) {
            RunSpec.Builder withMcp = runSpec.toBuilder();
            spec.mcpServers().forEach(withMcp::mcpServer);
            runSpec = withMcp.build();
        }
        AtomicReference<JobRepo.Collected> collected = new AtomicReference<>();
        AtomicReference<RuntimeException> collectFailure = new AtomicReference<>();
        RunRecord record;
        control.running(runId);
        dev.harness4j.core.AfterHarness collect = ctx -> {
            try {
                collected.set(repo.collect(ctx.workspace(), runId, p.id()));
            } catch (RuntimeException e) {
                collectFailure.set(e);
            }
        };
        String continued = sessionToContinue(p, spec);
        try {
            record = null;
            if (continued != null) {
                try {
                    record = runner.followUp(continued, runSpec, runId, HarnessListener.NONE, collect);
                } catch (IllegalStateException e) { // claimed or swept since it was looked at
                    book.event(JobEvent.Kind.NOTE, p.id(), null, runId, "runs afresh, not continuing a session: "
                            + e.getMessage());
                }
            }
            if (record == null) {
                record = runner.run(runSpec, runId, HarnessListener.NONE, collect);
            }
        } catch (HarnessException | IllegalArgumentException e) { // bad input the plan check could not see
            control.running(null);
            ended(p, runId, null, "refused: " + e.getMessage());
            failPhase(p, "the run was refused: " + e.getMessage());
            return null;
        } finally {
            control.running(null);
        }
        HarnessResult result = record.result();
        ended(p, runId, record, result.reason());
        Outcome outcome = result.outcome();
        JobRepo.Collected c = collected.get();
        JobControl.Request r = control.requested();
        if (outcome.isSuccess() && c != null) { // kept even when a pause or cancel came too late to stop it
            if (c.leftovers()) {
                book.event(JobEvent.Kind.LEFTOVERS_COMMITTED, p.id(), null, runId,
                        "the agent left changes uncommitted; the job committed them");
            }
            repo.resetTo(c.commit());
            PhaseReport report = result.phaseReport();
            book.completePhase(p, c.commit(), report);
            return r != null ? obey(r, null) : null;
        }
        if (r != null) {
            return obey(r, p);
        }
        if (outcome == Outcome.RATE_LIMITED) {
            rateLimited(p, spec, result);
        } else if (outcome == Outcome.BAILED) { // stopped by no request of ours: the runner is closing
            resetPhase(p, "its run was bailed (" + result.reason() + "); it runs again on resume");
            return book.state();
        } else {
            String why = outcome.isSuccess() ? "its work could not be taken into the job's repository: "
                    + collectFailure.get() : "run " + runId + " ended " + outcome.wireName()
                    + (result.reason() != null ? ": " + result.reason() : "");
            book.update(() -> p.attempts++);
            if (p.attempts() < spec.maxAttempts()) {
                resetPhase(p, why + "; attempt " + p.attempts() + " of " + spec.maxAttempts() + ", trying again");
            } else {
                failPhase(p, why);
            }
        }
        return null;
    }

    private void failPhase(PhaseBook p, String why) {
        book.move(p, PhaseSignal.FAIL, why);
        skipPending("phase " + p.id() + " failed");
        book.move(JobSignal.FAIL, "phase " + p.id() + " failed: " + why);
        repo.resetTo(book.head());
        JobFinish.pushAndSummarize(book, repo);
    }

    private void rateLimited(PhaseBook p, PhaseSpec spec, HarnessResult result) {
        Instant now = Instant.now();
        Instant reset = result.retryAt() != null ? result.retryAt() : now.plus(UNKNOWN_RESET_WAIT);
        Duration wait = Duration.between(now, reset);
        String why = "rate-limited on " + p.provider() + (result.retryAt() != null ? " until " + reset
                : " with no reset time (waiting " + UNKNOWN_RESET_WAIT.toSeconds() + " s)");
        resetPhase(p, why + "; no attempt consumed");
        if (wait.compareTo(book.plan().maxQuotaWait()) > 0 && Fallbacks.left(p, spec)) {
            Fallbacks.switchNext(book, p, spec, "the reset at " + reset + " is beyond the max wait of "
                    + book.plan().maxQuotaWait().toSeconds() + " s");
            return;
        }
        book.quotaPause(reset.isAfter(now) ? reset : now, why);
    }

    private void ended(PhaseBook p, String runId, RunRecord record, String reason) {
        book.update(() -> {
            int i = p.runs.size() - 1;
            PhaseBook.RunEntry e = p.runs.get(i);
            if (record == null) {
                p.runs.set(i, new PhaseBook.RunEntry(runId, e.provider(), e.model(), e.startedAt(), "refused", reason,
                        null, null, null, null, null, null));
                return;
            }
            HarnessResult r = record.result();
            p.runs.set(i, new PhaseBook.RunEntry(runId, e.provider(), e.model(), e.startedAt(),
                    r.outcome().wireName(), reason, record.resultDir(), r.tokens().input(), r.tokens().output(),
                    r.cost() != null ? r.cost().usd() : null, record.duration().toMillis(), r.retryAt()));
        });
    }
}
