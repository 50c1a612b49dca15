package dev.harness4j.qwen;

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
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QwenHarness#interpret} and its trajectory on real {@code qwen --output-format
 * stream-json} output, captured against the scripted model server by {@link QwenEndToEndTest}
 * ({@code write}, {@code swap}, {@code drop}, {@code 429}) and against an endpoint answering 401
 * ({@code 401}): resources under {@code captured/}.
 */
class QwenInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final QwenHarness harness = new QwenHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = QwenInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Execution execution(String model, List<String> stdout, List<String> stderr, Integer exit, Termination t,
            GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, model);
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("qwen").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return harness.interpret(execution("qwen-" + name, captured(name + ".stdout.jsonl"),
                captured(name + ".stderr.log"), exit, Termination.exited(), changes));
    }

    @Test
    void writeRunCompletesWithTheEnvelopesTotalsCacheReadsApartAndItsTextAsSummary() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // usage(100, 20, 30, 0) then usage(110, 5, 0, 0): qwen's envelope says input_tokens 240, cache reads 30
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.cost()).as("qwen prints no cost").isNull();
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void answeringModelIsUnmeasuredBecauseTheEventsRepeatTheRequestedOne() throws Exception {
        // the scripted server answered as qwen-other; qwen's events still say qwen-swap
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("qwen-swap"));
        assertThat(r.tokens().input()).isEqualTo(40);
        assertThat(r.summary()).isEqualTo("Nothing to do.");
    }

    @Test
    void droppedStreamIsTransientWithTokensUnmeasuredNotZero() throws Exception {
        HarnessResult r = interpret("drop", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("UND_ERR_SOCKET");
        assertThat(r.tokens().isMeasured()).as("the envelope printed zeros for a failed request").isFalse();
        assertThat(r.summary()).isNull();
        assertThat(QwenEvents.of(captured("drop.stdout.jsonl")).retries()).isEqualTo(4);
    }

    @Test
    void rejectedKeyIsAuthFromTheStatusInTheEnvelopesError() throws Exception {
        HarnessResult r = interpret("401", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).isEqualTo("[API Error: 401 invalid x-api-key]");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void runStoppedByTheRunnerAfterRepeatedRateLimitsIsRateLimitedWithTheStopsReason() throws Exception {
        String why = "stopped by harness4j after 4 rate-limited answers in a row";
        HarnessResult r = harness.interpret(execution("qwen-429", captured("429.stdout.jsonl"),
                captured("429.stderr.log"), null, new Termination(Termination.Kind.RATE_LIMITED, why), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).isEqualTo(why);
        assertThat(r.tokens().isMeasured()).as("only the init event was printed").isFalse();
    }

    @Test
    void aMaxTurnsEnvelopeIsMaxTurnsAndNoOutputAtAllIsAnErrorWithTheStderrTail() throws Exception {
        assertThat(QwenResults.fromFailure("Reached max session turns for this session. Increase the number of turns "
                + "by specifying maxSessionTurns in settings.json.", null).outcome()).isEqualTo(Outcome.MAX_TURNS);

        HarnessResult r = harness.interpret(execution("qwen-x", List.of("not json", "{\"type\":\"result\""),
                List.of("Error: something broke"), 1, Termination.exited(), NOTHING));
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 1", "something broke");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void trajectoryHasOneStepPerAssistantTurnWithItsShellCallItsResultAndItsUsage() throws Exception {
        Execution ex = execution("qwen-write", captured("write.stdout.jsonl"), List.of(), 0, Termination.exited(),
                CHANGED);
        List<TrajectoryStep> steps;
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            steps = s.toList();
        }

        assertThat(steps).hasSize(2);
        TrajectoryStep first = steps.get(0);
        assertThat(first.model()).as("qwen names the requested model, not the answering one").isNull();
        assertThat(first.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("run_shell_command");
            assertThat(c.arguments()).contains("hello from qwen");
        });
        assertThat(first.results()).singleElement().satisfies(res -> assertThat(res.content()).contains("Exit Code: 0"));
        assertThat(first.usage()).isEqualTo(new TokenUsage(100L, 20L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(steps.get(1).message()).isEqualTo("Wrote hello.txt.");
        assertThat(steps.get(1).toolCalls()).isEmpty();
    }

    @Test
    void aUsageFieldTheEnvelopeLacksIsUnmeasuredNotZero() {
        QwenEvents noOutputNoCache = QwenEvents.of(List.of(
                "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\","
                        + "\"usage\":{\"input_tokens\":120}}"));
        QwenEvents noCache = QwenEvents.of(List.of(
                "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\","
                        + "\"usage\":{\"input_tokens\":120,\"output_tokens\":7}}"));

        TokenUsage t = QwenResults.tokens(noOutputNoCache);
        assertThat(t.output()).as("output_tokens absent").isNull();
        assertThat(t.cacheRead()).as("cache_read_input_tokens absent").isNull();
        assertThat(t.input()).as("uncached input cannot be told without the cache reads").isNull();
        assertThat(QwenResults.tokens(noCache)).isEqualTo(new TokenUsage(null, 7L, null, null, TokenUsage.Source.ADAPTER));
    }
}
