package dev.harness4j.acp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Cost;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a session's JSON-RPC output, offline: outcomes from stopReason, errors and where a session stopped; the trajectory. */
class AcpResultsTest {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":1}}";
    private static final String NEW = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"sessionId\":\"s-9\"}}";

    @TempDir
    Path tmp;

    private final AcpHarness harness = new AcpGeminiHarness();

    @Test
    void endTurnWithChangesIsCompletedWithTheLastMessageAsSummary() throws Exception {
        HarnessResult r = interpret(GitChanges.dirty("abc", 1, 0, "hello.txt"), 0, INIT, NEW,
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"I will write.\"}}"),
                update("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"kind\":\"edit\",\"status\":\"pending\"}"),
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Wrote it.\"}}"),
                prompt("end_turn"));

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.summary()).isEqualTo("Wrote it.");
        assertThat(r.sessionId()).isEqualTo("s-9");
        assertThat(r.tokens()).as("the agent sent no usage: unmeasured, never 0").isEqualTo(TokenUsage.unmeasured());
        assertThat(r.cost()).isNull();
    }

    @Test
    void thePromptAnswersUsageAndTheLastUsageUpdatesCostAreTheAgentsOwnFigures() throws Exception {
        // as claude-agent-acp 0.101.0 sends them: the context's size per update, the session's cost at the end
        String done = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"stopReason\":\"end_turn\",\"usage\":"
                + "{\"inputTokens\":3750,\"outputTokens\":145,\"cachedReadTokens\":0,\"totalTokens\":3895}}}";
        HarnessResult r = interpret(GitChanges.dirty("abc", 1, 0, "hello.txt"), 0, INIT, NEW,
                update("{\"sessionUpdate\":\"usage_update\",\"used\":1201,\"size\":200000}"),
                update("{\"sessionUpdate\":\"usage_update\",\"used\":1290,\"size\":200000,\"cost\":{\"amount\":0.01,\"currency\":\"USD\"}}"),
                update("{\"sessionUpdate\":\"usage_update\",\"used\":1325,\"size\":200000,\"cost\":{\"amount\":0.022405,\"currency\":\"USD\"}}"),
                update("{\"sessionUpdate\":\"usage_update\",\"used\":1325,\"size\":200000,\"cost\":{\"amount\":9,\"currency\":\"EUR\"}}"),
                done);

        assertThat(r.tokens()).isEqualTo(TokenUsage.ofAdapter(3750L, 145L, 0L, null));
        assertThat(r.tokens().source()).isEqualTo(TokenUsage.Source.ADAPTER);
        assertThat(r.cost().usd()).isEqualByComparingTo("0.022405");
        assertThat(r.cost().source()).isEqualTo(Cost.Source.CLI_ESTIMATE);

        HarnessResult followUp = harness.interpret(execution("s-9", GitChanges.dirty("abc", 1, 0, "b.txt"), 0, INIT,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":null}",
                update("{\"sessionUpdate\":\"usage_update\",\"used\":9,\"size\":9,\"cost\":{\"amount\":0.05,\"currency\":\"USD\"}}"),
                done));
        assertThat(followUp.cost()).as("a loaded session's running total includes earlier runs").isNull();
        assertThat(followUp.tokens().input()).isEqualTo(3750L);

        HarnessResult odd = interpret(GitChanges.none("abc"), 0, INIT, NEW,
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"stopReason\":\"end_turn\",\"usage\":"
                        + "{\"inputTokens\":\"many\",\"outputTokens\":-1}}}");
        assertThat(odd.tokens()).as("garbage figures are absent, not 0").isEqualTo(TokenUsage.unmeasured());
        HarnessResult zero = interpret(GitChanges.none("abc"), 0, INIT, NEW, // mistral-vibe 3.0.2 at a failing endpoint
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"stopReason\":\"end_turn\",\"usage\":"
                        + "{\"inputTokens\":0,\"outputTokens\":0,\"totalTokens\":0}}}");
        assertThat(zero.tokens()).as("a turn no model answered: unmeasured, never 0").isEqualTo(TokenUsage.unmeasured());
    }

    @Test
    void stopReasonsMapToOutcomes() throws Exception {
        assertThat(interpret(GitChanges.none("abc"), 0, INIT, NEW, prompt("end_turn")).outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(interpret(GitChanges.none("abc"), 0, INIT, NEW, prompt("max_tokens")).outcome()).isEqualTo(Outcome.MAX_TURNS);
        assertThat(interpret(GitChanges.none("abc"), 0, INIT, NEW, prompt("cancelled")).outcome()).isEqualTo(Outcome.BAILED);
        HarnessResult refusal = interpret(GitChanges.none("abc"), 0, INIT, NEW, prompt("refusal"));
        assertThat(refusal.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(refusal.reason()).contains("refusal");
    }

    @Test
    void anErrorAnswerIsClassifiedByItsWording() throws Exception {
        HarnessResult r = interpret(GitChanges.none("abc"), 0, INIT, NEW,
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"Internal error\","
                        + "\"data\":\"429 Too Many Requests: rate limit exceeded\"}}");

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("session/prompt").contains("429");
    }

    @Test
    void garbageAndNoAnswerSayWhereTheSessionStopped() throws Exception {
        HarnessResult garbage = interpret(GitChanges.none("abc"), null, "Loading agent...", "not json {");
        assertThat(garbage.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(garbage.reason()).contains("not ACP JSON-RPC").contains("Loading agent...");

        HarnessResult died = interpret(GitChanges.none("abc"), 3, INIT, NEW);
        assertThat(died.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(died.reason()).contains("before answering session/prompt").contains("exit 3");
    }

    @Test
    void theTrajectoryHasMessagesThoughtsToolCallsAndResults() throws Exception {
        Execution ex = execution(GitChanges.none("abc"), 0, INIT, NEW,
                update("{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Plan.\"}}"),
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Writing.\"}}"),
                update("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"kind\":\"edit\",\"status\":\"pending\","
                        + "\"rawInput\":{\"file_path\":\"hello.txt\"}}"),
                update("{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\","
                        + "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"ok\"}}]}"),
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Done.\"}}"),
                prompt("end_turn"));

        List<TrajectoryStep> steps;
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            steps = s.toList();
        }

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).message()).isEqualTo("Writing.");
        assertThat(steps.get(0).reasoning()).isEqualTo("Plan.");
        assertThat(steps.get(0).toolCalls()).extracting(TrajectoryStep.ToolCall::name).containsExactly("edit");
        assertThat(steps.get(0).toolCalls().get(0).arguments()).contains("hello.txt");
        assertThat(steps.get(0).results()).extracting(TrajectoryStep.ToolResult::content).containsExactly("ok");
        assertThat(steps.get(1).message()).isEqualTo("Done.");
    }

    @Test
    void aLoadedSessionsReplayedHistoryIsNotTheFollowUpsOwnAndItsIdIsTheLoadedOnes() throws Exception {
        String loaded = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":null}"; // session/load answers no id
        Execution ex = execution("s-9", GitChanges.dirty("abc", 1, 0, "second.txt"), 0, INIT,
                update("{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"First.\"}}"),
                update("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"old\",\"kind\":\"edit\",\"status\":\"completed\"}"),
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Wrote first.\"}}"),
                loaded,
                update("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"new\",\"kind\":\"edit\",\"status\":\"pending\"}"),
                update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Wrote second.\"}}"),
                prompt("end_turn"));

        HarnessResult r = harness.interpret(ex);
        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.summary()).isEqualTo("Wrote second.");
        assertThat(r.sessionId()).isEqualTo("s-9");
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            assertThat(s.toList()).singleElement().satisfies(step -> {
                assertThat(step.toolCalls()).extracting(TrajectoryStep.ToolCall::id).containsExactly("new");
                assertThat(step.message()).isEqualTo("Wrote second.");
            });
        }
        HarnessResult refused = harness.interpret(execution("s-9", GitChanges.none("abc"), 1, INIT,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":\"no such session\"}}"));
        assertThat(refused.reason()).contains("answered session/load with an error: no such session");
    }

    private static String update(String u) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s-9\",\"update\":" + u + "}}";
    }

    private static String prompt(String stopReason) {
        return "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"stopReason\":\"" + stopReason + "\"}}";
    }

    private HarnessResult interpret(GitChanges changes, Integer exit, String... lines) throws Exception {
        return harness.interpret(execution(changes, exit, lines));
    }

    private Execution execution(GitChanges changes, Integer exit, String... lines) throws Exception {
        return execution(null, changes, exit, lines);
    }

    private Execution execution(String resume, GitChanges changes, Integer exit, String... lines) throws Exception {
        Path ws = Files.createDirectories(tmp.resolve("ws"));
        Path scratch = Files.createDirectories(tmp.resolve("scratch"));
        Path out = Files.write(Files.createTempFile(tmp, "stdout", ".log"), List.of(lines));
        Path err = Files.createTempFile(tmp, "stderr", ".log");
        HarnessContext ctx = HarnessContext.builder().prompt("p").workspace(ws).scratchDir(scratch).executable("gemini")
                .provider(new ResolvedProvider("p", EnumSet.of(ApiStyle.GEMINI), URI.create("http://127.0.0.1:9"),
                        Secret.of("k"), AuthScheme.API_KEY, "m")).resumeSession(resume).build();
        Invocation inv = harness.prepare(ctx);
        return Execution.builder(ctx, inv).exitCode(exit).stdout(out).stderr(err).changes(changes).build();
    }
}
