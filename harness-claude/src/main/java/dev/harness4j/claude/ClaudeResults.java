package dev.harness4j.claude;

import dev.harness4j.api.Cost;
import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.Secret;
import dev.harness4j.api.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Translates what a {@code claude -p} process did into a {@link HarnessResult}. Pure: reads only
 * the execution's output files, with bounded memory.
 *
 * <p>Outcome rules, first that applies:
 * <ol>
 *   <li>the guard or a caller stopped the process, or it never started: {@link
 *       Outcomes#fromTermination} wins whatever was printed;
 *   <li>no parsable result envelope in stdout: {@code error}, the reason quoting the last output
 *       lines;
 *   <li>{@code is_error: false}: {@code completed} when the workspace changed (HEAD moved or the
 *       tree is dirty), else {@code no-op}. Claude cannot say whether a task expected changes, so
 *       a clean answer that changed nothing is a no-op, as for opaque harnesses; a caller who asked
 *       a question reads {@code no-op} as success ({@link Outcome#isSuccess()});
 *   <li>{@code is_error: true}: classified by {@link ErrorClassifier}; for {@code rate-limited}
 *       the reset time is parsed from the error text, else from the last 429's response headers
 *       the API client logged to stdout ({@code retry-after}, see {@link RateLimitResets}).
 * </ol>
 * Tokens, cost and summary are read from the envelope whenever there is one (tokens and cost
 * only when a model call returned: see {@link #modelAnswered}); the served models
 * from the assistant messages ({@link AnsweringModels}), judged by {@link ServedModels}.
 */
final class ClaudeResults {
    /** The note recorded with every cost figure from the envelope. */
    static final String COST_NOTE = "Claude Code's own estimate (total_cost_usd): it prices model ids it does not "
            + "know at its default model's rate, so on other endpoints this is not what was billed";

    /** How many trailing lines of stdout and of stderr a missing-envelope reason quotes. */
    static final int REASON_TAIL_LINES = 8;

    /** The longest reason text kept from an error envelope or from output lines. */
    static final int MAX_REASON_CHARS = 1000;

    private ClaudeResults() {}

    static HarnessResult interpret(Execution ex, Instant now) {
        HarnessResult r = read(ex, now);
        String reason = r.reason();
        if (reason != null) {
            for (String secret : ex.invocation().secretValues()) {
                reason = reason.replace(secret, Secret.REDACTED);
            }
            if (!reason.equals(r.reason())) {
                r = r.withOutcome(r.outcome(), reason);
            }
        }
        return r;
    }

    private static HarnessResult read(Execution ex, Instant now) {
        String requested = ex.context().model();
        String stdoutTail = ex.stdoutTailText(ResultEnvelope.SCAN_BYTES);
        Optional<ResultEnvelope> found = ResultEnvelope.find(stdoutTail);
        Outcome imposed = Outcomes.fromTermination(ex.termination()).orElse(null);

        if (found.isEmpty()) {
            Outcome outcome = imposed != null ? imposed : Outcome.ERROR;
            String reason = imposed != null ? terminationReason(ex) : noEnvelopeReason(ex);
            // a stopped run has no envelope, but the turns it streamed still name their models
            return HarnessResult.builder(outcome, requested).reason(reason)
                    .servedModel(ServedModels.verdict(requested, AnsweringModels.of(ex))).build();
        }
        ResultEnvelope env = found.get();
        HarnessResult.Builder b;
        if (imposed != null) {
            b = HarnessResult.builder(imposed, requested).reason(terminationReason(ex));
        } else if (!env.isError()) {
            b = ex.changes().changed()
                    ? HarnessResult.builder(Outcome.COMPLETED, requested)
                    : HarnessResult.builder(Outcome.NO_OP, requested)
                            .reason("claude-code reported success but changed nothing in the workspace");
        } else {
            Outcome outcome = ErrorClassifier.classify(env);
            b = HarnessResult.builder(outcome, requested).reason(errorReason(env));
            if (outcome == Outcome.RATE_LIMITED) {
                // the wire's header first, the CLI's words after it
                RateLimitResets.fromLoggedHeaders(stdoutTail, now)
                        .or(() -> RateLimitResets.parse(env.errorText(), now))
                        .ifPresent(b::retryAt);
            }
        }
        if (!env.isError() && env.result() != null && !env.result().isBlank()) {
            b.summary(env.result().strip());
        }
        List<String> answering = AnsweringModels.of(ex);
        if (modelAnswered(env, answering)) {
            b.tokens(TokenUsage.ofAdapter(env.inputTokens(), env.outputTokens(), env.cacheReadTokens(),
                    env.cacheWriteTokens()));
            if (env.totalCostUsd() != null && env.totalCostUsd().signum() >= 0) {
                b.cost(new Cost(env.totalCostUsd(), Cost.Source.CLI_ESTIMATE, COST_NOTE));
            }
        }
        b.servedModel(ServedModels.verdict(requested, answering));
        b.sessionId(env.sessionId());
        return b.build();
    }

    /**
     * Whether any model call returned, so that the envelope's usage and cost measure something.
     * A run that failed before any answer (a 429, 401, 5xx or 400 on its first call) still gets
     * an envelope with every token figure and the cost at 0; then no assistant message came from
     * the endpoint (Claude Code's own error message has model {@code <synthetic>}) and {@code
     * modelUsage} is empty, and those zeros are unmeasured, not 0.
     */
    static boolean modelAnswered(ResultEnvelope env, List<String> answeringModels) {
        return !answeringModels.isEmpty() || !env.modelUsageKeys().isEmpty();
    }

    private static String terminationReason(Execution ex) {
        String why = ex.termination().reason();
        return "claude-code was stopped (" + ex.termination().kind() + ")" + (why == null ? "" : ": " + why);
    }

    private static String errorReason(ResultEnvelope env) {
        StringBuilder sb = new StringBuilder("claude-code reported an error");
        List<String> what = new ArrayList<>();
        if (env.subtype() != null && !env.subtype().equals("success")) {
            what.add(env.subtype()); // API failures come with subtype "success"; saying so would confuse
        }
        if (env.apiErrorStatus() != null) {
            what.add("HTTP " + env.apiErrorStatus());
        }
        if (!what.isEmpty()) {
            sb.append(" (").append(String.join(", ", what)).append(')');
        }
        String text = env.errorText().strip();
        if (!text.isEmpty()) {
            sb.append(": ").append(text);
        }
        return cap(sb.toString());
    }

    private static String noEnvelopeReason(Execution ex) {
        List<String> lines = new ArrayList<>();
        for (String l : ex.stderrTail(REASON_TAIL_LINES)) {
            if (!l.isBlank()) {
                lines.add(l.strip());
            }
        }
        for (String l : ex.stdoutTail(REASON_TAIL_LINES)) {
            if (!l.isBlank()) {
                lines.add(l.strip());
            }
        }
        String exit = ex.exitCode() == null ? "no exit code" : "exit code " + ex.exitCode();
        String head = "claude-code printed no result envelope (" + exit + "); ";
        if (lines.isEmpty()) {
            return head + "it printed nothing";
        }
        String tail = String.join(" | ", lines);
        int room = MAX_REASON_CHARS - head.length() - "last output: …".length();
        return head + "last output: " + (tail.length() <= room ? tail : "…" + tail.substring(tail.length() - room));
    }

    private static String cap(String s) {
        return s.length() <= MAX_REASON_CHARS ? s : s.substring(0, MAX_REASON_CHARS - 1) + "…";
    }
}
