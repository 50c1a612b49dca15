package dev.harness4j.cline;

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
 * {@link ClineHarness#interpret} and its trajectory on real {@code cline --json} output, captured
 * against the scripted model server by {@link ClineEndToEndTest} ({@code write}, {@code swap},
 * {@code drop}, {@code 429}) and against an endpoint answering 401 ({@code 401}): resources under
 * {@code captured/}.
 */
class ClineInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final ClineHarness harness = new ClineHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = ClineInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Execution execution(String model, List<String> stdout, List<String> stderr, Integer exit, Termination t,
            GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, model);
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("cline").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return harness.interpret(execution("cline-" + name, captured(name + ".stdout.jsonl"),
                captured(name + ".stderr.log"), exit, Termination.exited(), changes));
    }

    @Test
    void writeRunCompletesWithTheRunResultsTotalsCacheReadsApartAndItsTextAsSummary() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // usage(100, 20, 30, 0) then usage(110, 5, 0, 0): cline's inputTokens say 240, cache reads 30 among them
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, 0L, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.cost()).as("cline's totalCost is a price list, not measured").isNull();
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("cline-write"));
        assertThat(r.sessionId()).startsWith("conv_");
    }

    @Test
    void writeRunsTrajectoryHasTheShellCallWithItsResultThenTheAnswer() throws Exception {
        Execution ex = execution("cline-write", captured("write.stdout.jsonl"), List.of(), 0, Termination.exited(), CHANGED);
        List<TrajectoryStep> steps;
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            steps = s.toList();
        }
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("run_commands");
            assertThat(c.arguments()).contains("hello from cline");
        });
        assertThat(steps.get(0).results()).singleElement().satisfies(res -> assertThat(res.content()).contains("\"success\":true"));
        assertThat(steps.get(0).usage()).isEqualTo(new TokenUsage(100L, 20L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(steps.get(1).message()).isEqualTo("Wrote hello.txt.");
        assertThat(steps.get(1).toolCalls()).isEmpty();
    }

    @Test
    void swapRunWithoutChangesIsANoOpWithItsTokens() throws Exception {
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.tokens()).isEqualTo(new TokenUsage(40L, 4L, 0L, 0L, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Nothing to do.");
    }

    @Test
    void rateLimitedRunEndsRateLimitedWithNothingMeasured() throws Exception {
        HarnessResult r = interpret("429", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("429");
        assertThat(r.tokens()).as("only zeros printed").isEqualTo(TokenUsage.unmeasured());
        assertThat(r.summary()).as("the error text is the reason, not a summary").isNull();
    }

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        HarnessResult r = interpret("drop", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("socket connection was closed");
    }

    @Test
    void refusedKeyEndsAuthByClinesErrorClass() throws Exception {
        HarnessResult r = interpret("401", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).isEqualTo("bad key");
    }

    @Test
    void aRunStoppedAtItsMaxRuntimeIsATimeoutWhateverItPrinted() throws Exception {
        HarnessResult r = harness.interpret(execution("cline-write", captured("write.stdout.jsonl"), List.of(), null,
                new Termination(Termination.Kind.MAX_RUNTIME, "max runtime 5s"), CHANGED));

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).isEqualTo("max runtime 5s");
    }

    @Test
    void noOutputAtAllIsAnErrorNamingTheExit() throws Exception {
        HarnessResult r = harness.interpret(execution("cline-x", List.of(), List.of("boom"), 2, Termination.exited(), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 2", "boom");
        assertThat(r.tokens()).isEqualTo(TokenUsage.unmeasured());
    }
}
