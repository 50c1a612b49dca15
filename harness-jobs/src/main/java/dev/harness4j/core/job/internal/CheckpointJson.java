package dev.harness4j.core.job.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.PhaseState;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code checkpoint.json}: a {@link JobBook} as JSON and back. */
final class CheckpointJson {
    /** The format's version, written as {@code "format"}. */
    static final int FORMAT = 1;

    private CheckpointJson() {}

    static ObjectNode write(JobBook b) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("format", FORMAT);
        n.put("job_id", b.jobId);
        n.put("state", b.state.wireName());
        n.put("reason", b.reason);
        n.put("resume_at", b.resumeAt != null ? b.resumeAt.toString() : null);
        n.put("branch", b.branch);
        n.put("base_commit", b.baseCommit);
        n.put("head", b.head);
        n.put("created_at", b.createdAt.toString());
        n.put("updated_at", b.updatedAt.toString());
        ArrayNode phases = n.putArray("phases");
        for (PhaseBook p : b.phases.values()) {
            ObjectNode o = phases.addObject();
            o.put("id", p.id);
            o.put("state", p.state.wireName());
            o.put("harness", p.harness);
            o.put("provider", p.provider);
            o.put("model", p.model);
            o.put("attempts", p.attempts);
            o.put("fallbacks_used", p.fallbacksUsed);
            o.put("commit", p.commit);
            o.put("next_phase_notes", p.notes);
            o.put("reason", p.reason);
            if (p.report != null) {
                ObjectNode r = o.putObject("report");
                r.put("completed", p.report.completed());
                r.put("committed", p.report.committed());
                r.put("commit_message", p.report.commitMessage());
                r.put("summary", p.report.summary());
                r.put("next_phase_notes", p.report.nextPhaseNotes());
                ArrayNode bl = r.putArray("blockers");
                p.report.blockers().forEach(bl::add);
                r.put("source", p.report.source());
            }
            ArrayNode runs = o.putArray("runs");
            for (PhaseBook.RunEntry e : p.runs) {
                ObjectNode x = runs.addObject();
                x.put("run_id", e.runId());
                x.put("provider", e.provider());
                x.put("model", e.model());
                x.put("started_at", e.startedAt().toString());
                x.put("outcome", e.outcome());
                x.put("reason", e.reason());
                x.put("result_dir", e.resultDir() != null ? e.resultDir().toString() : null);
                x.put("input_tokens", e.inputTokens());
                x.put("output_tokens", e.outputTokens());
                x.put("cost_usd", e.costUsd());
                x.put("duration_ms", e.durationMillis());
                x.put("retry_at", e.retryAt() != null ? e.retryAt().toString() : null);
            }
        }
        try {
            n.set("plan", new ObjectMapper().readTree(b.plan.toJson()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a plan's own JSON did not read back: " + e.getMessage(), e);
        }
        return n;
    }

    static JobBook read(JsonNode n, Path dir) {
        var plan = JobPlan.fromJson(n.get("plan").toString(), dir);
        JobBook b = new JobBook(n.get("job_id").asText(), dir, plan, n.get("branch").asText(),
                n.get("base_commit").asText(), text(n, "head"), Instant.parse(n.get("created_at").asText()));
        b.state = JobState.fromWireName(n.get("state").asText());
        b.reason = text(n, "reason");
        b.resumeAt = instant(n, "resume_at");
        b.updatedAt = Instant.parse(n.get("updated_at").asText());
        for (JsonNode o : n.get("phases")) {
            PhaseBook p = b.phases.get(o.get("id").asText());
            p.state = PhaseState.fromWireName(o.get("state").asText());
            p.provider = text(o, "provider");
            p.model = text(o, "model");
            p.attempts = o.path("attempts").asInt();
            p.fallbacksUsed = o.path("fallbacks_used").asInt();
            p.commit = text(o, "commit");
            p.notes = text(o, "next_phase_notes");
            p.reason = text(o, "reason");
            JsonNode r = o.get("report");
            if (r != null && r.isObject()) {
                List<String> blockers = new ArrayList<>();
                r.path("blockers").forEach(x -> blockers.add(x.asText()));
                p.report = new PhaseBook.Report(r.path("completed").asBoolean(), r.path("committed").asBoolean(),
                        text(r, "commit_message"), text(r, "summary"), text(r, "next_phase_notes"), blockers,
                        text(r, "source"));
            }
            for (JsonNode x : o.path("runs")) {
                p.runs.add(new PhaseBook.RunEntry(x.get("run_id").asText(), text(x, "provider"), text(x, "model"),
                        Instant.parse(x.get("started_at").asText()), text(x, "outcome"), text(x, "reason"),
                        text(x, "result_dir") != null ? Path.of(text(x, "result_dir")) : null, number(x, "input_tokens"),
                        number(x, "output_tokens"), x.hasNonNull("cost_usd") ? x.get("cost_usd").decimalValue() : null,
                        number(x, "duration_ms"), instant(x, "retry_at")));
            }
        }
        return b;
    }

    private static String text(JsonNode n, String f) {
        JsonNode v = n.get(f);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Long number(JsonNode n, String f) {
        JsonNode v = n.get(f);
        return v == null || v.isNull() ? null : v.asLong();
    }

    private static Instant instant(JsonNode n, String f) {
        String t = text(n, f);
        return t == null ? null : Instant.parse(t);
    }

}
