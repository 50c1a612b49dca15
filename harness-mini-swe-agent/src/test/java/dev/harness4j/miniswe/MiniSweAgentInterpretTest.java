package dev.harness4j.miniswe;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MiniSweAgentHarness#interpret} on real mini-swe-agent trajectories, captured by {@link
 * MiniSweAgentEndToEndTest} against the scripted model server (resources {@code
 * captured/<name>.trajectory.json}), placed where the run's scratch dir would hold them.
 */
class MiniSweAgentInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final MiniSweAgentHarness harness = new MiniSweAgentHarness();

    private HarnessResult interpret(String model, String trajectory, Integer exit, Termination t, GitChanges changes)
            throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, model);
        Path scratch = tmp.resolve("scratch");
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(scratch).executable("mini-swe-agent").build();
        if (trajectory != null) {
            Path file = scratch.resolve(MiniSweAgentInvocations.TRAJECTORY_FILE);
            Files.createDirectories(file.getParent());
            try (InputStream in = getClass().getResourceAsStream("/captured/" + trajectory + ".trajectory.json")) {
                assertThat(in).as("resource captured/" + trajectory + ".trajectory.json").isNotNull();
                Files.copy(in, file);
            }
        }
        Path out = Files.writeString(tmp.resolve("stdout.log"), "");
        Path err = Files.writeString(tmp.resolve("stderr.log"), "Traceback (most recent call last):\nRuntimeError: boom\n");
        return harness.interpret(new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3)));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return interpret("mini-" + name, name, exit, Termination.exited(), changes);
    }

    @Test
    void submittedRunCompletesWithTokensSummedOverTheAnswersCachedPromptApart() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // usage(100, 20, 30, 0) then usage(110, 5, 0, 0): prompt_tokens 130 + 110, 30 of them cached;
        // Chat Completions usage has no cache-write figure: unmeasured, not 0
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(r.reason()).isNull();
        assertThat(r.cost()).as("unpriced: instance_cost 0 is no measurement").isNull();
    }

    @Test
    void aFigureSomeAnswerLackedIsUnmeasuredAndOneEveryAnswerCarriedIsSummed() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        String anthropicStyle = "{\"messages\":["
                + "{\"role\":\"assistant\",\"content\":\"a\",\"extra\":{\"response\":{\"usage\":{\"prompt_tokens\":100,"
                + "\"completion_tokens\":10,\"cache_creation_input_tokens\":40}}}},"
                + "{\"role\":\"assistant\",\"content\":\"b\",\"extra\":{\"response\":{\"usage\":{\"prompt_tokens\":120,"
                + "\"completion_tokens\":5,\"cache_creation_input_tokens\":0}}}}]}";
        TokenUsage both = MiniSweAgentResults.tokens(Trajectory.of(json.readTree(anthropicStyle)).orElseThrow());
        assertThat(both).isEqualTo(new TokenUsage(220L, 15L, 0L, 40L, TokenUsage.Source.ADAPTER));

        String oneLacking = anthropicStyle.replace(",\"completion_tokens\":5,\"cache_creation_input_tokens\":0", "");
        TokenUsage partial = MiniSweAgentResults.tokens(Trajectory.of(json.readTree(oneLacking)).orElseThrow());
        assertThat(partial).isEqualTo(new TokenUsage(220L, null, 0L, null, TokenUsage.Source.ADAPTER));
    }

    @Test
    void everyAnsweringModelIsSeen() throws Exception {
        ServedModel s = interpret("write", 0, CHANGED).servedModel();

        assertThat(s.answered()).containsExactly("mini-write", "mini-other");
        assertThat(s.verdict()).isEqualTo(ServedModel.Verdict.MISMATCH);
    }

    @Test
    void submittedWithoutChangesIsANoOp() throws Exception {
        assertThat(interpret("write", 0, NOTHING).outcome()).isEqualTo(Outcome.NO_OP);
    }

    @Test
    void stepLimitIsMaxTurns() throws Exception {
        HarnessResult r = interpret("steps", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.MAX_TURNS);
        assertThat(r.reason()).contains("step limit of 1");
        assertThat(r.tokens().input()).isEqualTo(10);
    }

    @Test
    void rateLimitIsRateLimitedWithTheResetTimeTheAgentRecorded() throws Exception {
        HarnessResult r = interpret("429", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("RateLimitError").contains("scripted 429");
        // harness4j_failed_at 1796140370.4575105 plus retry-after-ms 1000
        assertThat(r.retryAt()).isEqualTo(Instant.ofEpochMilli(1796140370458L + 1000));
        assertThat(r.tokens().isMeasured()).as("no answer: unmeasured, not 0").isFalse();
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("mini-429"));
    }

    @Test
    void droppedConnectionIsTransient() throws Exception {
        HarnessResult r = interpret("drop", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("Connection error");
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void exceptionClassesMapToTheOutcomeContract() {
        assertThat(outcome("AuthenticationError", "invalid key", null)).isEqualTo(Outcome.AUTH);
        assertThat(outcome("ContextWindowExceededError", "too long", null)).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(outcome("BadRequestError", "This model's maximum context length is 8192 tokens", 400))
                .isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(outcome("BadRequestError", "unknown parameter", 400)).isEqualTo(Outcome.BAD_REQUEST);
        assertThat(outcome("APIConnectionError", "Connection error.", null)).isEqualTo(Outcome.TRANSIENT);
        assertThat(outcome("ServiceUnavailableError", "overloaded", 503)).isEqualTo(Outcome.TRANSIENT);
        assertThat(outcome("SomethingNew", "teapot", 418)).isEqualTo(Outcome.BAD_REQUEST);
        assertThat(outcome("RuntimeError", "Global cost/call limit exceeded", null)).isEqualTo(Outcome.ERROR);
    }

    private static Outcome outcome(String name, String text, Integer status) {
        Trajectory t = new Trajectory(name, text, status, java.util.Map.of(), null, 1L, null, 0, 0, 0L, 0, 0L, 0L,
                List.of(), null);
        return MiniSweAgentResults.fromException(name, t).outcome();
    }

    @Test
    void aPositiveInstanceCostIsTheCliEstimate() {
        Trajectory t = new Trajectory("Submitted", null, null, java.util.Map.of(), null, 2L,
                new java.math.BigDecimal("0.0123"), 0, 2, 10L, 0, 0L, 2L, List.of("m"), "done");

        Cost c = MiniSweAgentResults.cost(t);
        assertThat(c.usd()).isEqualByComparingTo("0.0123");
        assertThat(c.source()).isEqualTo(Cost.Source.CLI_ESTIMATE);
    }

    @Test
    void withoutATrajectoryANonZeroExitIsAnErrorWithTheStderrTailAndNothingMeasured() throws Exception {
        HarnessResult r = interpret("mini-x", null, 1, Termination.exited(), NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 1").contains("left no trajectory").contains("RuntimeError: boom");
        assertThat(r.tokens().isMeasured()).isFalse();
        assertThat(r.cost()).isNull();
        assertThat(r.servedModel().verdict()).isEqualTo(ServedModel.Verdict.UNMEASURED);
    }

    @Test
    void aGuardStopWinsOverTheTrajectory() throws Exception {
        HarnessResult r = interpret("mini-write", "write", null,
                new Termination(Termination.Kind.MAX_RUNTIME, "ran longer than 300 s"), CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.tokens().input()).as("what the trajectory measured is kept").isEqualTo(210);
    }
}
