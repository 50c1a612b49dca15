package dev.harness4j.core.job.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.internal.workspace.BranchPusher;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * What a job does when it ends: pushes its branch when the plan asks (only when completed), then
 * writes {@code summary.json} (phases, their reports, runs, tokens, cost, time) into its directory.
 */
public final class JobFinish {
    public static final String SUMMARY = "summary.json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JobFinish() {}

    /** Pushes (when asked and completed) and writes the summary; a failed push is an event, not a failure. */
    static void pushAndSummarize(JobBook book, JobRepo repo) {
        String pushed = null;
        if (book.plan().push() && book.state() == JobState.COMPLETED) {
            pushed = push(book, repo);
        }
        writeSummary(book, pushed);
    }

    private static String push(JobBook book, JobRepo repo) {
        Set<String> secrets = BranchPusher.remoteCredentials(repo.dir());
        String target = "harness4j/jobs/" + book.jobId();
        if (JobRepo.originOf(repo.dir()) == null) {
            book.event(JobEvent.Kind.PUSHED, null, null, null, "not pushed: the baseline " + book.plan().baseline()
                    + " has no remote 'origin'");
            return null;
        }
        try {
            repo.push("origin", target);
            book.event(JobEvent.Kind.PUSHED, null, null, null, "pushed " + book.branch() + " to origin as " + target);
            return target;
        } catch (RuntimeException e) {
            String msg = String.valueOf(e.getMessage());
            for (String s : secrets) {
                msg = msg.replace(s, "***");
            }
            book.event(JobEvent.Kind.PUSHED, null, null, null, "the push to origin failed: " + msg);
            return null;
        }
    }

    /** Writes {@code summary.json} atomically. */
    static void writeSummary(JobBook book, String pushedAs) {
        ObjectNode n = MAPPER.createObjectNode();
        var status = book.status();
        n.put("job_id", book.jobId());
        n.put("state", status.state().wireName());
        n.put("reason", status.reason());
        n.put("branch", book.branch());
        n.put("base_commit", status.baseCommit());
        n.put("head", status.head());
        n.put("pushed_as", pushedAs);
        n.put("created_at", status.createdAt().toString());
        n.put("finished_at", Instant.now().toString());
        n.put("elapsed_ms", Duration.between(status.createdAt(), Instant.now()).toMillis());
        long in = 0;
        long out = 0;
        int measured = 0;
        int runs = 0;
        BigDecimal cost = BigDecimal.ZERO;
        int priced = 0;
        long runMillis = 0;
        ArrayNode phases = n.putArray("phases");
        for (PhaseBook p : book.phases()) {
            ObjectNode o = phases.addObject();
            o.put("id", p.id());
            o.put("state", p.state().wireName());
            o.put("harness", p.harness);
            o.put("provider", p.provider());
            o.put("model", p.model());
            o.put("commit", p.commit());
            o.put("reason", p.reason);
            o.put("next_phase_notes", p.notes());
            if (p.report != null) {
                ObjectNode r = o.putObject("report");
                r.put("completed", p.report.completed());
                r.put("committed", p.report.committed());
                r.put("commit_message", p.report.commitMessage());
                r.put("summary", p.report.summary());
                r.put("source", p.report.source());
                ArrayNode bl = r.putArray("blockers");
                p.report.blockers().forEach(bl::add);
            } else {
                o.putNull("report");
            }
            ArrayNode rs = o.putArray("runs");
            for (PhaseBook.RunEntry e : p.runs) {
                runs++;
                ObjectNode x = rs.addObject();
                x.put("run_id", e.runId());
                x.put("provider", e.provider());
                x.put("model", e.model());
                x.put("outcome", e.outcome());
                x.put("result_dir", e.resultDir() != null ? e.resultDir().toString() : null);
                x.put("input_tokens", e.inputTokens());
                x.put("output_tokens", e.outputTokens());
                x.put("cost_usd", e.costUsd());
                x.put("duration_ms", e.durationMillis());
                if (e.inputTokens() != null || e.outputTokens() != null) {
                    measured++;
                    in += e.inputTokens() != null ? e.inputTokens() : 0;
                    out += e.outputTokens() != null ? e.outputTokens() : 0;
                }
                if (e.costUsd() != null) {
                    priced++;
                    cost = cost.add(e.costUsd());
                }
                if (e.durationMillis() != null) {
                    runMillis += e.durationMillis();
                }
            }
        }
        ObjectNode t = n.putObject("totals");
        t.put("runs", runs);
        t.put("runs_with_tokens", measured);
        t.put("runs_with_cost", priced);
        // unmeasured is absent, never 0
        if (measured > 0) {
            t.put("input_tokens", in);
            t.put("output_tokens", out);
        }
        if (priced > 0) {
            t.put("cost_usd", cost);
        }
        t.put("run_ms", runMillis);
        Path target = book.dir().resolve(SUMMARY);
        Path tmp = book.dir().resolve(SUMMARY + ".tmp");
        try {
            Files.write(tmp, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(n));
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the job summary " + target, e);
        }
    }
}
