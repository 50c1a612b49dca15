package dev.harness4j.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
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
import dev.harness4j.api.TrajectoryStep;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GeminiHarness#interpret} and {@link GeminiHarness#trajectory} on real {@code gemini
 * --output-format stream-json} stdout and its stderr, captured by {@link GeminiEndToEndTest}
 * against the scripted model server (resources under {@code captured/}: {@code
 * <name>.stdout.jsonl} and {@code <name>.stderr.log}).
 */
class GeminiInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final GeminiHarness harness = new GeminiHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = GeminiInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Execution execution(String model, List<String> stdout, List<String> stderr, Integer exit, Termination t,
            GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.GEMINI), URI.create("http://127.0.0.1:1"),
                Secret.of("k"), AuthScheme.API_KEY, model);
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("gemini").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3))
                .withTimes(Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T10:00:03Z"));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return harness.interpret(execution("gemini-" + name, captured(name + ".stdout.jsonl"),
                captured(name + ".stderr.log"), exit, Termination.exited(), changes));
    }

    private static String result(String status, String error, String stats) {
        return "{\"type\":\"result\",\"timestamp\":\"2026-12-01T10:00:03Z\",\"status\":\"" + status + "\""
                + (error == null ? "" : ",\"error\":{\"type\":\"unknown\",\"message\":\"" + error + "\"}")
                + ",\"stats\":" + stats + "}";
    }

    private static final String ZERO_STATS = "{\"total_tokens\":0,\"input_tokens\":0,\"output_tokens\":0,\"cached\":0,"
            + "\"input\":0,\"duration_ms\":0,\"tool_calls\":0,\"models\":{\"m\":{\"total_tokens\":0,\"input_tokens\":0,"
            + "\"output_tokens\":0,\"cached\":0,\"input\":0}}}";

    @Test
    void writeRunCompletesWithTheResultStatsCachedInputApartAndTheAnswerAsSummary() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // usage(100, 20, 30, 0) then usage(110, 5, 0, 0): the CLI says input_tokens 240, cached 30, input 210
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.cost()).as("gemini prints no cost").isNull();
        assertThat(r.servedModel()).isEqualTo(ServedModel.exact("gemini-write", List.of("gemini-write")));
    }

    @Test
    void theAnsweringModelIsTheKeyOfTheCliStatsWhichFollowModelVersion() throws Exception {
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.servedModel().answered()).containsExactly("gemini-other");
        assertThat(r.servedModel().verdict()).isEqualTo(ServedModel.Verdict.MISMATCH);
        assertThat(r.tokens().input()).isEqualTo(40);
    }

    @Test
    void rateLimitedRunIsRateLimitedByTheStatusOnStderrWithNothingMeasured() throws Exception {
        HarnessResult r = interpret("429", 429 % 256, NOTHING); // the CLI exits with the HTTP status

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("rate limit exceeded").contains("429");
        assertThat(r.retryAt()).as("the CLI names no wait; the meter adds the header's").isNull();
        assertThat(r.tokens().isMeasured()).as("all-zero stats of a run nothing answered").isFalse();
        assertThat(r.servedModel().answered()).isEmpty();
    }

    @Test
    void googlesRefusalOfAKeyItDoesNotKnowIsAuthNotBadRequest() throws Exception {
        HarnessResult r = interpret("bad-key", 1, NOTHING); // 400 INVALID_ARGUMENT / API_KEY_INVALID

        assertThat(r.outcome()).as(r.reason()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).contains("API key not valid");
        assertThat(r.retryAt()).isNull();
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void droppedConnectionIsTransient() throws Exception {
        HarnessResult r = interpret("drop", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("terminated");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void aWaitTheErrorNamesBecomesTheRetryTime() throws Exception {
        HarnessResult r = harness.interpret(execution("m", List.of(result("error",
                "[API Error: Resource has been exhausted. Please retry in 30s.]", ZERO_STATS)),
                List.of("Attempt 1 failed with status 429. Retrying with backoff..."), 173, Termination.exited(), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.retryAt()).isEqualTo(Instant.parse("2026-12-01T10:00:33Z"));
    }

    @Test
    void theStatusOnStderrClassifiesAuthAndServerErrors() throws Exception {
        HarnessResult auth = harness.interpret(execution("m", List.of(result("error", "[API Error: API key not valid.]",
                ZERO_STATS)), List.of("_ApiError: {\"error\":{\"code\":401,\"message\":\"API key not valid.\"}}"), 145,
                Termination.exited(), NOTHING));
        HarnessResult server = harness.interpret(execution("m", List.of(result("error", "[API Error: boom]", ZERO_STATS)),
                List.of("Attempt 3 failed with status 503. Max attempts reached"), 1, Termination.exited(), NOTHING));

        assertThat(auth.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(server.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(server.reason()).isEqualTo("[API Error: boom] (HTTP 503)");
    }

    @Test
    void contextWindowWordingIsContextOverflow() throws Exception {
        HarnessResult r = harness.interpret(execution("m", List.of(result("error",
                "[API Error: The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).]",
                ZERO_STATS)), List.of("Attempt 1 failed with status 400."), 1, Termination.exited(), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
    }

    @Test
    void thinkingCountsAsOutput() throws Exception {
        String stats = "{\"total_tokens\":1700,\"input_tokens\":1500,\"output_tokens\":120,\"cached\":500,\"input\":1000,"
                + "\"models\":{\"gemini-2.5-pro\":{\"total_tokens\":1700,\"input_tokens\":1500,\"output_tokens\":120,"
                + "\"cached\":500,\"input\":1000}}}";
        HarnessResult r = harness.interpret(execution("gemini-2.5-pro", List.of(result("success", null, stats)), List.of(),
                0, Termination.exited(), NOTHING));

        assertThat(r.tokens()).isEqualTo(new TokenUsage(1000L, 200L, 500L, null, TokenUsage.Source.ADAPTER));
    }

    @Test
    void aTimeoutWinsOverTheOutputAndNoResultLeavesTokensUnmeasured() throws Exception {
        List<String> cut = captured("write.stdout.jsonl").subList(0, 3);
        HarnessResult r = harness.interpret(execution("gemini-write", cut, List.of(), null,
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no output for 90 s"), CHANGED));

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).isEqualTo("no output for 90 s");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void anExitWithoutAResultIsAnErrorNamingStderr() throws Exception {
        HarnessResult r = harness.interpret(execution("m", List.of(), List.of("Invalid auth method selected."), 41,
                Termination.exited(), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).isEqualTo("gemini exited with 41: Invalid auth method selected.");
    }

    @Test
    void trajectoryIsOneStepPerModelAnswerWithItsToolCallsAndResults() throws Exception {
        Execution ex = execution("gemini-write", captured("write.stdout.jsonl"), List.of(), 0, Termination.exited(), CHANGED);

        List<TrajectoryStep> steps;
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            steps = s.toList();
        }

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).message()).isEmpty();
        assertThat(steps.get(0).toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("write_file");
            assertThat(c.arguments()).contains("\"file_path\":\"hello.txt\"").contains("hello from gemini");
        });
        assertThat(steps.get(0).results()).singleElement().satisfies(res -> {
            assertThat(res.callId()).isEqualTo(steps.get(0).toolCalls().get(0).id());
            assertThat(res.content()).isEqualTo("success");
        });
        assertThat(steps.get(1).message()).isEqualTo("Wrote hello.txt.");
        assertThat(steps.get(1).toolCalls()).isEmpty();
    }

    @Test
    void garbageAndCutLinesAreSkipped() throws Exception {
        List<String> out = List.of("not json", "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"hi\"",
                "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"done\",\"delta\":true}");
        Execution ex = execution("m", out, List.of(), 0, Termination.exited(), NOTHING);

        HarnessResult r = harness.interpret(ex);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.summary()).isEqualTo("done");
        assertThat(r.tokens().isMeasured()).isFalse();
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            assertThat(s.map(TrajectoryStep::message).toList()).containsExactly("done");
        }
    }

    @Test
    void aStatsFieldTheResultLacksIsUnmeasuredNotZero() {
        GeminiEvents noCachedNoOutput = GeminiEvents.of(List.of(result("success", null,
                "{\"total_tokens\":150,\"input_tokens\":130,\"input\":130,"
                        + "\"models\":{\"m\":{\"total_tokens\":150,\"input_tokens\":130}}}")), List.of());
        GeminiEvents noTotal = GeminiEvents.of(List.of(result("success", null,
                "{\"input_tokens\":130,\"input\":100,\"cached\":30,\"output_tokens\":20,"
                        + "\"models\":{\"m\":{\"input_tokens\":130}}}")), List.of());

        TokenUsage a = GeminiResults.tokens(noCachedNoOutput);
        assertThat(a.cacheRead()).as("cached absent").isNull();
        assertThat(a.input()).isEqualTo(130);
        assertThat(a.output()).as("from total - input").isEqualTo(20);
        assertThat(GeminiResults.tokens(noTotal)).isEqualTo(new TokenUsage(100L, 20L, 30L, null, TokenUsage.Source.ADAPTER));
        TokenUsage none = GeminiResults.tokens(GeminiEvents.of(List.of(result("success", null,
                "{\"input\":5,\"models\":{\"m\":{\"input_tokens\":5}}}")), List.of()));
        assertThat(none.output()).as("neither output_tokens nor total_tokens").isNull();
        assertThat(none.cacheRead()).isNull();
    }
}
