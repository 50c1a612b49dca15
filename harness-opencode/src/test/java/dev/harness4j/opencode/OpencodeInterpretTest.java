package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Cost;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OpencodeHarness#interpret} on real {@code opencode run --format json} output, captured by
 * {@link OpencodeEndToEndTest} against the scripted model server (resources under {@code captured/}).
 */
class OpencodeInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("src/hello.txt"), 2, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final OpencodeHarness harness = new OpencodeHarness();

    /** The API styles the context's provider serves: OpenAI (through openai-compatible) unless a test says otherwise. */
    private EnumSet<ApiStyle> styles = EnumSet.of(ApiStyle.OPENAI);

    private static List<String> captured(String name) throws Exception {
        try (InputStream in = OpencodeInterpretTest.class.getResourceAsStream("/captured/" + name + ".jsonl")) {
            assertThat(in).as("resource captured/" + name + ".jsonl").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private HarnessContext context(Map<String, String> options) {
        ResolvedProvider p = new ResolvedProvider("scripted", styles, URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.API_KEY, "oc-model");
        return HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("opencode").options(options).build();
    }

    private HarnessResult interpret(List<String> stdout, Integer exit, Termination t, GitChanges changes,
            Map<String, String> options, String stderr) throws Exception {
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.writeString(tmp.resolve("stderr.log"), stderr);
        HarnessContext ctx = context(options);
        return harness.interpret(new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3)));
    }

    private HarnessResult interpret(String resource, int exit, GitChanges changes) throws Exception {
        return interpret(captured(resource), exit, Termination.exited(), changes, Map.of(), "");
    }

    @Test
    void writeFileRunCompletesWithTokensSummedOverStepsAndTheLastTextAsSummary() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Wrote src/hello.txt.");
        assertThat(r.reason()).isNull();
    }

    @Test
    void unpricedModelHasNoCostThoughOpencodeReportsZero() throws Exception {
        assertThat(interpret("write", 0, CHANGED).cost()).isNull();
    }

    @Test
    void pricedModelReportsTheCostOpencodeSummed() throws Exception {
        HarnessResult r = interpret(captured("shell"), 0, Termination.exited(), CHANGED,
                Map.of(OpencodeHarness.OPTION_PRICE_INPUT, "3", OpencodeHarness.OPTION_PRICE_OUTPUT, "15"), "");

        assertThat(r.cost().usd()).isEqualByComparingTo("0.01125");
        assertThat(r.cost().source()).isEqualTo(Cost.Source.CONFIGURED_PRICE);
        assertThat(r.cost().note()).isNotBlank();
    }

    @Test
    void servedModelIsUnmeasuredBecauseTheEventsNameNoModel() throws Exception {
        assertThat(interpret("write", 0, CHANGED).servedModel()).isEqualTo(ServedModel.unmeasured("oc-model"));
    }

    @Test
    void talkOnlyRunWithoutChangesIsANoOp() throws Exception {
        HarnessResult r = interpret("talk", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.summary()).isEqualTo("Nothing to change here.");
        assertThat(r.tokens().input()).isEqualTo(50);
    }

    @Test
    void rateLimitIsRateLimitedWithTheResetTimeFromTheResponseHeaders() throws Exception {
        HarnessResult r = interpret("429", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("429").contains("rate limit exceeded");
        // retry-after-ms: 50 from the event's timestamp 1795962130768
        assertThat(r.retryAt()).isEqualTo(Instant.ofEpochMilli(1795962130768L + 50));
        assertThat(r.tokens().isMeasured()).as("no step finished: unmeasured, not 0").isFalse();
        assertThat(r.cost()).isNull();
    }

    @Test
    void refusedKeyIsAuth() throws Exception {
        HarnessResult r = interpret("401", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).contains("HTTP 401");
    }

    @Test
    void contextOverflowWinsEvenAfterOpencodeCompactedAndAnswered() throws Exception {
        HarnessResult r = interpret("context", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(r.reason()).contains("ContextOverflowError");
        assertThat(r.tokens().isMeasured()).isTrue();
    }

    @Test
    void summarySkipsOpencodesSyntheticCompactionText() throws Exception {
        List<String> untilCompacted = captured("context").subList(0, 5); // ends with the synthetic text

        HarnessResult r = interpret(untilCompacted, 1, Termination.exited(), NOTHING, Map.of(), "");

        assertThat(r.summary()).isEqualTo("Scripted session");
    }

    @Test
    void anthropicRunIsReadTheSameWayWithItsCacheWritesMeasured() throws Exception {
        styles = EnumSet.of(ApiStyle.ANTHROPIC);

        HarnessResult r = interpret("anthropic", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.tokens()).isEqualTo(new TokenUsage(81L, 7L, 0L, 0L, TokenUsage.Source.ADAPTER));
    }

    @Test
    void cacheWritesAreAbsentWhereTheServerGaveNoFigureNotZero() throws Exception {
        // Chat Completions usage has no cache-write figure; opencode prints cache.write 0 all the same
        assertThat(captured("write")).filteredOn(l -> l.contains("step_finish"))
                .allSatisfy(l -> assertThat(l).contains("\"cache\":{\"write\":0,"));
        assertThat(interpret("write", 0, CHANGED).tokens().cacheWrite()).as("OpenAI-compatible endpoint").isNull();

        // a step whose event carries no cache figures at all: missing is not 0, on any endpoint
        styles = EnumSet.of(ApiStyle.ANTHROPIC);
        List<String> noCache = captured("anthropic").stream()
                .map(l -> l.replaceAll(",?\"cache\":\\{[^}]*\\}", "")).toList();
        assertThat(String.join("\n", noCache)).contains("step_finish").doesNotContain("\"cache\"");
        TokenUsage t = interpret(noCache, 0, Termination.exited(), CHANGED, Map.of(), "").tokens();
        assertThat(t).isEqualTo(new TokenUsage(81L, 7L, null, null, TokenUsage.Source.ADAPTER));
    }

    @Test
    void garbageAndTruncatedLinesAmongTheEventsAreIgnored() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("npm warn something unrelated");
        for (String l : captured("write")) {
            lines.add(l);
            lines.add("");
            lines.add("{\"type\":\"step_finish\",\"part\":{\"tokens\":{\"input\":99"); // cut off mid-line
            lines.add("[1, 2, 3]");
        }
        lines.add("\u0000\u00ff binary noise");

        HarnessResult r = interpret(lines, 0, Termination.exited(), CHANGED, Map.of(), "");
        OpencodeEvents events = OpencodeEvents.of(lines);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.tokens().input()).isEqualTo(210);
        assertThat(events.garbageLines()).isEqualTo(2 + 2 * captured("write").size());
        assertThat(events.toolCalls()).isEqualTo(1);
    }

    @Test
    void reasoningTokensAreCountedWithOutput() throws Exception {
        List<String> lines = captured("talk").stream()
                .map(l -> l.replace("\"reasoning\":0", "\"reasoning\":11")).toList();

        HarnessResult r = interpret(lines, 0, Termination.exited(), NOTHING, Map.of(), "");

        assertThat(r.tokens().output()).isEqualTo(7 + 11);
    }

    @Test
    void guardStopWinsOverEventsAndTokensStillCount() throws Exception {
        HarnessResult r = interpret(captured("write"), null,
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no new output within 30 s"), CHANGED, Map.of(), "");

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).isEqualTo("no new output within 30 s");
        assertThat(r.tokens().input()).isEqualTo(210);
    }

    @Test
    void nonZeroExitWithoutErrorEventsIsAnErrorCitingStderr() throws Exception {
        HarnessResult r = interpret(List.of(), 1, Termination.exited(), NOTHING, Map.of(),
                "Error: Failed to change directory to /nowhere\n");

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 1").contains("Failed to change directory");
        assertThat(r.tokens().isMeasured()).isFalse();
        assertThat(r.summary()).isNull();
    }

    @Test
    void aConnectionDroppedMidAnswerIsTransient() throws Exception {
        List<String> drop = captured("drop");
        assertThat(String.join("\n", drop)).contains("\"isRetryable\":true").doesNotContain("statusCode");

        HarnessResult r = interpret(drop, 1, Termination.exited(), NOTHING, Map.of(), "");

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("socket connection was closed unexpectedly");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void errorNamesAndStatusesMapToOutcomeClasses() {
        assertThat(OpencodeResults.classify(error("ProviderAuthError", null, "bad key"))).isEqualTo(Outcome.AUTH);
        assertThat(OpencodeResults.classify(error("APIError", 403, "forbidden"))).isEqualTo(Outcome.AUTH);
        assertThat(OpencodeResults.classify(error("APIError", 503, "unavailable"))).isEqualTo(Outcome.TRANSIENT);
        assertThat(OpencodeResults.classify(error("APIError", 500, "boom"))).isEqualTo(Outcome.TRANSIENT);
        assertThat(OpencodeResults.classify(error("APIError", 400, "maximum context length is 8192 tokens")))
                .isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(OpencodeResults.classify(error("APIError", 400, "unknown field 'foo'"))).isEqualTo(Outcome.BAD_REQUEST);
        assertThat(OpencodeResults.classify(error("UnknownError", null, "socket closed"))).isEqualTo(Outcome.ERROR);
        assertThat(OpencodeResults.classify(new OpencodeEvents.ErrorEvent("APIError", null, "closed", null, Map.of(),
                null, false))).as("not retryable, no status").isEqualTo(Outcome.ERROR);
        assertThat(OpencodeResults.classify(new OpencodeEvents.ErrorEvent("APIError", 400, "bad", null, Map.of(),
                null, true))).as("a status wins over isRetryable").isEqualTo(Outcome.BAD_REQUEST);
    }

    @Test
    void retryAfterInSecondsOrAsADateGivesTheResetTime() {
        Instant at = Instant.parse("2026-11-29T14:00:00Z");
        assertThat(OpencodeResults.retryAt(error429(Map.of("retry-after", "30"), at))).isEqualTo(at.plusSeconds(30));
        assertThat(OpencodeResults.retryAt(error429(Map.of("retry-after", "Sun, 29 Nov 2026 14:05:00 GMT"), at)))
                .isEqualTo(Instant.parse("2026-11-29T14:05:00Z"));
        assertThat(OpencodeResults.retryAt(error429(Map.of("retry-after", "soon"), at))).isNull();
        assertThat(OpencodeResults.retryAt(error429(Map.of(), at))).isNull();
    }

    private static OpencodeEvents.ErrorEvent error(String name, Integer status, String message) {
        return new OpencodeEvents.ErrorEvent(name, status, message, null, Map.of(), null, null);
    }

    private static OpencodeEvents.ErrorEvent error429(Map<String, String> headers, Instant at) {
        return new OpencodeEvents.ErrorEvent("APIError", 429, "slow down", null, headers, at.toEpochMilli(), true);
    }
}
