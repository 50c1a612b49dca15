package dev.harness4j.continuedev;

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
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ContinueHarness#interpret} on real {@code cn -p --format json} output: {@code write},
 * {@code swap} and {@code 429} (cn's own give-up after 33 rate-limited requests) captured against
 * the scripted model server by {@link ContinueEndToEndTest}; {@code 401} against an endpoint
 * answering 401, {@code refused} against a closed port: resources under {@code captured/}.
 */
class ContinueInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final ContinueHarness harness = new ContinueHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = ContinueInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Execution execution(List<String> stdout, List<String> stderr, Integer exit, Termination t,
            GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, "m");
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("cn").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return harness.interpret(execution(captured(name + ".stdout.jsonl"), captured(name + ".stderr.log"), exit,
                Termination.exited(), changes));
    }

    @Test
    void writeRunCompletesWithTheResponseAsSummaryAndNothingMeasuredByTheAdapter() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.tokens()).as("cn prints no usage").isEqualTo(TokenUsage.unmeasured());
        assertThat(r.cost()).isNull();
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("m"));
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void answerWithoutChangesIsANoOpWithItsSummary() throws Exception {
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.summary()).isEqualTo("Nothing to do.");
    }

    @Test
    void theErrorObjectOfA429EndsRateLimitedWithItsWords() throws Exception {
        HarnessResult r = interpret("429", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).isEqualTo("429 rate limit exceeded: scripted 429");
        assertThat(r.summary()).isNull();
    }

    @Test
    void a401IsAnAuthFailure() throws Exception {
        HarnessResult r = interpret("401", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).isEqualTo("401 Incorrect API key provided.");
    }

    @Test
    void aRefusedConnectionIsTransient() throws Exception {
        HarnessResult r = interpret("refused", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).isEqualTo("Connection error.");
    }

    @Test
    void theErrorObjectWinsOverChangesTheAgentMadeBeforeIt() throws Exception {
        HarnessResult r = interpret("refused", 1, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.summary()).isNull();
    }

    @Test
    void anExitWithoutAnyObjectIsAnErrorQuotingStderr() throws Exception {
        HarnessResult r = harness.interpret(execution(List.of(), List.of("node: something broke"), 2,
                Termination.exited(), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).isEqualTo("cn exited with 2: node: something broke");
    }

    @Test
    void aTimeoutImposedByTheRunnerWins() throws Exception {
        HarnessResult r = harness.interpret(execution(List.of(), List.of(), null,
                new Termination(Termination.Kind.MAX_RUNTIME, "wall-clock limit 1s"), NOTHING));

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).isEqualTo("wall-clock limit 1s");
    }
}
