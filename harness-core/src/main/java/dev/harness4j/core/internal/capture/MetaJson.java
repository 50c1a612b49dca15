package dev.harness4j.core.internal.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.harness4j.api.Cost;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Login;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.workspace.BranchPush;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/** Turns a {@link RunRecord} into the {@code meta.json} tree (snake_case, schema version 1). */
final class MetaJson {
    /** The version of the {@code meta.json} layout. */
    static final int SCHEMA_VERSION = 1;

    private MetaJson() {}

    static ObjectNode of(ObjectMapper mapper, RunRecord r, Redactor redactor) {
        HarnessResult res = r.result();
        ObjectNode m = mapper.createObjectNode();
        m.put("schema_version", SCHEMA_VERSION);
        m.put("run_id", r.runId());
        m.put("harness", r.spec().harness());
        m.put("provider", r.providerName());
        m.put("model", r.spec().model());
        m.put("resolved_model", r.resolvedModel());
        m.put("task", r.spec().task());
        m.put("trial", r.spec().trial());
        ObjectNode baseline = m.putObject("baseline");
        baseline.put("repo", r.baseline().repo().toString());
        baseline.put("ref", r.baseline().ref());
        baseline.put("base_commit", r.baseline().commit());
        baseline.put("dirty", r.baseline().dirty());
        baseline.put("isolation", r.spec().isolation().name().toLowerCase(Locale.ROOT));
        m.put("head_after", r.headAfter());
        m.put("outcome", res.outcome().wireName());
        m.put("reason", res.reason());
        m.put("stage", r.stage() == null ? null : r.stage().wireName());
        if (r.exitCode() == null) {
            m.putNull("exit_code");
        } else {
            m.put("exit_code", r.exitCode());
        }
        if (r.termination() == null) {
            m.putNull("termination");
        } else {
            ObjectNode t = m.putObject("termination");
            t.put("kind", r.termination().kind().name().toLowerCase(Locale.ROOT));
            t.put("reason", r.termination().reason());
        }
        m.put("started_at", r.startedAt().toString());
        m.put("finished_at", r.finishedAt().toString());
        m.put("duration_ms", r.duration().toMillis());
        m.set("changes", changes(mapper, r.changes()));
        m.set("tokens", tokens(mapper, res.tokens()));
        m.set("cost", cost(mapper, res.cost()));
        m.set("served_model", served(mapper, res.servedModel()));
        m.set("login", login(mapper, r.login()));
        m.set("branch", branch(mapper, r.branch()));
        m.put("summary", res.summary());
        m.set("phase_report", phase(mapper, res.phaseReport()));
        m.put("retry_at", res.retryAt() == null ? null : res.retryAt().toString());
        if (res.sessionId() != null) {
            m.put("session_id", res.sessionId()); // the agent's own session, which a follow-up run continues
        }
        m.set("meter", meter(mapper, r.meter()));
        HarnessResult a = r.adapterResult();
        if (a == null) {
            m.putNull("adapter");
        } else { // the adapter's own figures, beside the wire's
            ObjectNode an = m.putObject("adapter");
            an.put("outcome", a.outcome().wireName());
            an.set("tokens", tokens(mapper, a.tokens()));
            an.set("cost", cost(mapper, a.cost()));
            an.set("served_model", served(mapper, a.servedModel()));
        }
        ArrayNode notes = m.putArray("notes");
        r.notes().forEach(notes::add);
        r.sections().forEach((key, value) -> {
            if (!m.has(key)) { // a section never hides the runner's own fields
                m.set(key, mapper.valueToTree(value));
            }
        });
        redactTexts(m, redactor);
        return m;
    }

    private static JsonNode changes(ObjectMapper mapper, GitChanges c) {
        if (c == null) {
            return mapper.nullNode();
        }
        ObjectNode n = mapper.createObjectNode();
        n.put("head_moved", c.headMoved());
        n.put("dirty", c.dirty());
        n.put("files_changed", c.files().size());
        n.put("insertions", c.insertions());
        n.put("deletions", c.deletions());
        ArrayNode files = n.putArray("files");
        c.files().forEach(files::add);
        return n;
    }

    private static JsonNode tokens(ObjectMapper mapper, TokenUsage t) {
        ObjectNode n = mapper.createObjectNode();
        putLong(n, "input", t.input());
        putLong(n, "output", t.output());
        putLong(n, "cache_read", t.cacheRead());
        putLong(n, "cache_write", t.cacheWrite());
        n.put("source", t.source() == null ? null : t.source().name().toLowerCase(Locale.ROOT));
        return n;
    }

    private static JsonNode meter(ObjectMapper mapper, MeterSummary s) {
        if (s == null) {
            return mapper.nullNode();
        }
        ObjectNode n = mapper.createObjectNode();
        n.put("requests", s.requests());
        n.put("model_requests", s.modelRequests());
        n.put("measured_requests", s.measuredRequests());
        n.set("tokens", tokens(mapper, s.tokens()));
        ArrayNode a = n.putArray("answered");
        s.answered().forEach(a::add);
        n.put("budget_passed", s.budgetPassed());
        return n;
    }

    private static JsonNode cost(ObjectMapper mapper, Cost c) {
        if (c == null) {
            return mapper.nullNode();
        }
        ObjectNode n = mapper.createObjectNode();
        n.put("usd", c.usd());
        n.put("source", c.source().name().toLowerCase(Locale.ROOT));
        n.put("note", c.note());
        return n;
    }

    private static JsonNode served(ObjectMapper mapper, ServedModel s) {
        ObjectNode n = mapper.createObjectNode();
        n.put("requested", s.requested());
        ArrayNode a = n.putArray("answered");
        s.answered().forEach(a::add);
        n.put("verdict", s.verdict().name().toLowerCase(Locale.ROOT));
        return n;
    }

    private static JsonNode login(ObjectMapper mapper, Login l) {
        ObjectNode n = mapper.createObjectNode();
        n.put("status", l.status().name().toLowerCase(Locale.ROOT));
        n.put("auth_method", l.authMethod());
        n.put("api_provider", l.apiProvider());
        n.put("key_source", l.keySource());
        n.put("account", l.account());
        n.put("subscription", l.subscription());
        return n;
    }

    private static JsonNode branch(ObjectMapper mapper, BranchPush b) {
        if (b == null) {
            return mapper.nullNode();
        }
        ObjectNode n = mapper.createObjectNode();
        n.put("pushed", b.pushed());
        n.put("name", b.name());
        n.put("remote", b.remote());
        n.put("commit", b.commit());
        n.put("error", b.error());
        return n;
    }

    private static JsonNode phase(ObjectMapper mapper, PhaseReport p) {
        if (p == null) {
            return mapper.nullNode();
        }
        ObjectNode n = mapper.createObjectNode();
        n.put("completed", p.completed());
        n.put("committed", p.committed());
        n.put("commit_message", p.commitMessage());
        n.put("summary", p.summary());
        n.put("next_phase_notes", p.nextPhaseNotes());
        ArrayNode b = n.putArray("blockers");
        p.blockers().forEach(b::add);
        n.put("source", p.source().name().toLowerCase(Locale.ROOT));
        if (p.summarizer() != null) { // its own tokens: never in the run's
            ObjectNode z = n.putObject("summarizer");
            z.put("provider", p.summarizer().provider());
            z.put("model", p.summarizer().model());
            ObjectNode t = z.putObject("tokens");
            putLong(t, "input", p.summarizer().inputTokens());
            putLong(t, "output", p.summarizer().outputTokens());
        }
        return n;
    }

    private static void putLong(ObjectNode n, String key, Long v) {
        if (v == null) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }

    /** Replaces secret values in every text value of the tree. */
    private static void redactTexts(JsonNode node, Redactor redactor) {
        if (redactor.isEmpty()) {
            return;
        }
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isTextual()) {
                    e.setValue(TextNode.valueOf(redactor.redact(e.getValue().textValue())));
                } else {
                    redactTexts(e.getValue(), redactor);
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) {
                    a.set(i, TextNode.valueOf(redactor.redact(a.get(i).textValue())));
                } else {
                    redactTexts(a.get(i), redactor);
                }
            }
        }
    }
}
