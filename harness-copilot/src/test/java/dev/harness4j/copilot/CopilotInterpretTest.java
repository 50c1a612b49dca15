package dev.harness4j.copilot;

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
 * {@link CopilotHarness#interpret} and its trajectory on real {@code copilot --output-format json}
 * output, captured against the scripted model server by {@link CopilotEndToEndTest} ({@code write},
 * {@code swap}, {@code drop}, {@code 429}) and against a port nobody listens on ({@code refused}):
 * resources under {@code captured/}.
 */
class CopilotInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final CopilotHarness harness = new CopilotHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = CopilotInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Execution execution(String model, List<String> stdout, List<String> stderr, Integer exit, Termination t,
            GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, model);
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("copilot").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return harness.interpret(execution("copilot-" + name, captured(name + ".stdout.jsonl"),
                captured(name + ".stderr.log"), exit, Termination.exited(), changes));
    }

    @Test
    void writeRunCompletesWithTheLastAssistantTextAsSummaryTheSessionIdAndTokensUnmeasuredNotZero() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.sessionId()).isEqualTo("6878b8b6-a756-4a3f-ac21-12cfba5ca05c");
        assertThat(r.tokens().isMeasured()).as("copilot's JSONL prints no token counts in BYOK mode").isFalse();
        assertThat(r.cost()).as("copilot prints no cost").isNull();
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void answeringModelIsUnmeasuredBecauseTheEventsRepeatTheRequestedOne() throws Exception {
        // the scripted server answered as copilot-other; copilot's assistant.message still says copilot-swap
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("copilot-swap"));
        assertThat(r.summary()).isEqualTo("Nothing to do.");
    }

    @Test
    void unreachableEndpointIsTransientFromTheSessionError() throws Exception {
        HarnessResult r = interpret("refused", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).startsWith("Could not connect to local model provider at http://127.0.0.1:9/v1.");
        assertThat(r.summary()).isNull();
        assertThat(r.sessionId()).isEqualTo("b769c93b-b5b1-4ac6-bf9f-7a5817fb36fc");
    }

    @Test
    void runsStoppedByTheRunnerKeepTheStopsOutcomeAndReason() throws Exception {
        String why = "stopped by harness4j after 1 rate-limited answer";
        HarnessResult r = harness.interpret(execution("copilot-429", captured("429.stdout.jsonl"),
                captured("429.stderr.log"), null, new Termination(Termination.Kind.RATE_LIMITED, why), NOTHING));
        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).isEqualTo(why);
        assertThat(r.tokens().isMeasured()).isFalse();

        HarnessResult drop = harness.interpret(execution("copilot-drop", captured("drop.stdout.jsonl"),
                captured("drop.stderr.log"), null, new Termination(Termination.Kind.ENDPOINT_FAILING, "5 failed"), NOTHING));
        assertThat(drop.outcome()).isEqualTo(Outcome.TRANSIENT);
    }

    @Test
    void aSessionErrorsStatusCodeClassifiesItAndNoOutputAtAllIsAnErrorWithTheStderrTail() throws Exception {
        Execution ex = execution("copilot-x", List.of(), List.of(), 1, Termination.exited(), NOTHING);
        assertThat(CopilotResults.fromFailure("429 Too Many Requests", 429, ex).outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(CopilotResults.fromFailure("401 invalid key", 401, ex).outcome()).isEqualTo(Outcome.AUTH);
        assertThat(CopilotResults.fromFailure("400 bogus test endpoint", 400, ex).outcome())
                .isEqualTo(Outcome.BAD_REQUEST);
        assertThat(CopilotEvents.of(List.of("{\"type\":\"session.error\",\"data\":{\"errorType\":\"query\","
                + "\"message\":\"400 bogus test endpoint\",\"statusCode\":400}}")).errorStatus()).isEqualTo(400);

        HarnessResult r = harness.interpret(execution("copilot-x", List.of("not json", "{\"type\":\"result\""),
                List.of("Error: something broke"), 1, Termination.exited(), NOTHING));
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 1", "something broke");
    }

    @Test
    void trajectoryHasOneStepPerAssistantMessageWithItsShellCallAndItsResult() throws Exception {
        Execution ex = execution("copilot-write", captured("write.stdout.jsonl"), List.of(), 0, Termination.exited(),
                CHANGED);
        List<TrajectoryStep> steps;
        try (Stream<TrajectoryStep> s = harness.trajectory(ex).orElseThrow()) {
            steps = s.toList();
        }

        assertThat(steps).hasSize(2);
        TrajectoryStep first = steps.get(0);
        assertThat(first.model()).as("copilot names the requested model, not the answering one").isNull();
        assertThat(first.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("call_scripted_7");
            assertThat(c.name()).isEqualTo("bash");
            assertThat(c.arguments()).contains("hello from copilot");
        });
        assertThat(first.results()).singleElement().satisfies(res -> {
            assertThat(res.content()).contains("completed with exit code 0");
        });
        assertThat(first.usage()).isNull();
        assertThat(steps.get(1).message()).isEqualTo("Wrote hello.txt.");
        assertThat(steps.get(1).toolCalls()).isEmpty();
    }
}
