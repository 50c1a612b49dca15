package dev.harness4j.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.AcpSession;
import dev.harness4j.api.Cost;
import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.support.Outcomes;

/**
 * Reads a finished ACP session from the agent's stdout (its JSON-RPC responses and {@code
 * session/update} notifications). Pure: reads only the execution's files.
 *
 * <ul>
 *   <li>outcome: from the {@code session/prompt} response's {@code stopReason}: {@code end_turn}
 *       is completed or no-op by git, {@code max_tokens} and {@code max_turn_requests}
 *       max-turns, {@code refusal} error, {@code cancelled} bailed; an error response to any of
 *       harness-core's requests is error, refined by its wording (429, auth, overflow, transient);
 *       no response at all is error, saying where the session stopped (the agent never answered
 *       {@code initialize}, printed no JSON-RPC, or exited mid-session) with stderr's last line.
 *   <li>tokens and cost: the agent's own figures, beside the meter's (which stay the trusted ones):
 *       tokens from the {@code session/prompt} response's {@code usage} ({@code inputTokens},
 *       {@code outputTokens}, {@code cachedReadTokens}, {@code cachedWriteTokens}; each absent when
 *       the agent did not say; all zero, as mistral-vibe answers a turn no model answered, is
 *       unmeasured), cost from the last {@code usage_update} notification's {@code cost}
 *       in USD (a CLI estimate; the session's running total, so not taken on a follow-up, whose
 *       session began in an earlier run); unmeasured when the agent sends neither (ACP v1 makes
 *       them optional).
 *   <li>summary: the agent's message text after its last tool call.
 *   <li>session id: {@code session/new}'s; on a follow-up, the loaded session's ({@code session/load}),
 *       whose replayed history (the updates before its answer) is not this run's.
 * </ul>
 */
final class AcpResults {
    /** The caveat shown with the agent's cost. */
    static final String COST_NOTE = "the agent's own estimate (ACP usage_update)";

    private AcpResults() {}

    static HarnessResult interpret(Execution ex, AcpAgent agent) {
        Read r = new Read(ex.context().resumeSession() != null);
        ex.forEachStdoutLine(r::line);
        String model = ex.context().model();
        if (r.sessionId == null && r.sessionOpen) {
            r.sessionId = ex.context().resumeSession(); // session/load answers with no id: the loaded one
        }
        HarnessResult.Builder b = HarnessResult.builder(Outcome.ERROR, model).sessionId(r.sessionId).tokens(r.tokens);
        if (r.costUsd != null && !r.loading) {
            b.cost(new Cost(r.costUsd, Cost.Source.CLI_ESTIMATE, COST_NOTE));
        }
        if (r.summary.length() > 0) {
            b.summary(r.summary.toString().strip());
        }
        if (r.stopReason != null) {
            return switch (r.stopReason) {
                case "end_turn" -> b.outcome(ex.changes().changed() ? Outcome.COMPLETED : Outcome.NO_OP).build();
                case "max_tokens", "max_turn_requests" -> b.outcome(Outcome.MAX_TURNS)
                        .reason(agent.name() + " stopped the turn: " + r.stopReason).build();
                case "cancelled" -> b.outcome(Outcome.BAILED).reason("the session was cancelled").build();
                case "refusal" -> b.reason(agent.name() + " refused to go on (stopReason refusal)").build();
                default -> b.reason(agent.name() + " ended the turn with an unknown stopReason '" + r.stopReason + "'").build();
            };
        }
        String stderr = lastLine(ex);
        if (r.error != null) {
            Outcome o = Outcomes.fromText(r.error).orElse(Outcome.ERROR);
            return b.outcome(o).reason(agent.name() + " answered " + r.errorMethod + " with an error: " + r.error)
                    .retryAt(o == Outcome.RATE_LIMITED ? Outcomes.retryAt(ex, r.error).orElse(null) : null).build();
        }
        String where;
        if (!r.initialized) {
            where = r.garbage != null ? "printed something that is not ACP JSON-RPC and never answered initialize: "
                    + cut(r.garbage) : "never answered ACP initialize";
        } else if (!r.sessionOpen) {
            where = ex.context().resumeSession() != null ? "never answered session/load" : "never answered session/new";
        } else {
            where = "ended the session before answering session/prompt";
        }
        String exit = ex.exitCode() == null ? "" : " (exit " + ex.exitCode() + ")";
        Outcome o = Outcomes.fromText(stderr).orElse(Outcome.ERROR);
        return b.outcome(o).reason(agent.name() + " " + where + exit + (stderr.isEmpty() ? "" : "; stderr: " + cut(stderr)))
                .build();
    }

    private static String lastLine(Execution ex) {
        var tail = ex.stderrTail(1);
        return tail.isEmpty() ? "" : tail.get(0).strip();
    }

    private static String cut(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    /** What the lines say, read once. */
    private static final class Read {
        final boolean loading;
        boolean initialized;
        boolean sessionOpen; // session/new or session/load answered: updates before are a loaded session's replay
        String sessionId;
        String stopReason;
        String error;
        String errorMethod;
        String garbage;
        StringBuilder summary = new StringBuilder();
        TokenUsage tokens = TokenUsage.unmeasured();
        java.math.BigDecimal costUsd;

        Read(boolean loading) {
            this.loading = loading;
        }

        void line(String line) {
            JsonNode m = AcpLines.message(line);
            if (m == null) {
                if (garbage == null && !line.isBlank()) {
                    garbage = line.strip();
                }
                return;
            }
            JsonNode u = AcpLines.update(m);
            if (u != null) {
                if (!sessionOpen) {
                    return;
                }
                switch (u.path("sessionUpdate").asText()) {
                    case "agent_message_chunk" -> summary.append(AcpLines.text(u.path("content")));
                    case "tool_call" -> summary.setLength(0);
                    case "usage_update" -> {
                        JsonNode c = u.path("cost");
                        if (c.path("amount").isNumber() && c.path("currency").asText("USD").equals("USD")
                                && c.path("amount").decimalValue().signum() >= 0) {
                            costUsd = c.path("amount").decimalValue();
                        }
                    }
                    default -> { }
                }
                return;
            }
            if (m.has("method") || !m.has("id")) {
                return;
            }
            int id = m.path("id").asInt(-1);
            if (m.has("error")) {
                if (error == null && id >= AcpSession.INITIALIZE_ID && id <= AcpSession.PROMPT_ID) {
                    error = m.path("error").path("message").asText("") + dataOf(m.path("error"));
                    errorMethod = id == AcpSession.INITIALIZE_ID ? "initialize"
                            : id == AcpSession.NEW_SESSION_ID ? (loading ? "session/load" : "session/new") : "session/prompt";
                }
                return;
            }
            if (id == AcpSession.INITIALIZE_ID) {
                initialized = true;
            } else if (id == AcpSession.NEW_SESSION_ID) {
                initialized = true;
                sessionOpen = true;
                sessionId = m.path("result").path("sessionId").asText(null);
            } else if (id == AcpSession.PROMPT_ID) {
                stopReason = m.path("result").path("stopReason").asText("end_turn");
                JsonNode usage = m.path("result").path("usage");
                Long in = count(usage, "inputTokens");
                Long out = count(usage, "outputTokens");
                if ((in != null && in > 0) || (out != null && out > 0)) { // all zero: a turn no model answered
                    tokens = TokenUsage.ofAdapter(in, out, count(usage, "cachedReadTokens"),
                            count(usage, "cachedWriteTokens"));
                }
            }
        }

        /** A whole, non-negative count, or {@code null} when the field is absent or anything else. */
        private static Long count(JsonNode usage, String field) {
            JsonNode n = usage.path(field);
            return n.canConvertToLong() && n.isIntegralNumber() && n.asLong() >= 0 ? n.asLong() : null;
        }

        private static String dataOf(JsonNode error) {
            JsonNode d = error.path("data");
            if (d.isMissingNode() || d.isNull()) {
                return "";
            }
            return " (" + (d.isTextual() ? d.asText() : d.toString()) + ")";
        }
    }
}
