package dev.harness4j.codex;

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
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CodexHarness#interpret} on real {@code codex exec --json} stdout and its stderr log,
 * captured by {@link CodexEndToEndTest} against the scripted model server (resources under {@code
 * captured/}: {@code <name>.stdout.jsonl} and {@code <name>.stderr.log}).
 */
class CodexInterpretTest {
    private static final GitChanges CHANGED = new GitChanges("a", "a", false, true, List.of("hello.txt"), 1, 0);
    private static final GitChanges NOTHING = GitChanges.none("a");

    @TempDir
    Path tmp;

    private final CodexHarness harness = new CodexHarness();

    private static List<String> captured(String file) throws Exception {
        try (InputStream in = CodexInterpretTest.class.getResourceAsStream("/captured/" + file)) {
            assertThat(in).as("resource captured/" + file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private HarnessResult interpret(String model, List<String> stdout, List<String> stderr, Integer exit,
            Termination t, GitChanges changes) throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.BEARER, model);
        HarnessContext ctx = HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("codex").build();
        Path out = Files.write(tmp.resolve("stdout.log"), stdout);
        Path err = Files.write(tmp.resolve("stderr.log"), stderr);
        return harness.interpret(new Execution(ctx, harness.prepare(ctx), exit, t, out, err, changes, Duration.ofSeconds(3)));
    }

    private HarnessResult interpret(String name, int exit, GitChanges changes) throws Exception {
        return interpret("codex-" + name, captured(name + ".stdout.jsonl"), captured(name + ".stderr.log"), exit,
                Termination.exited(), changes);
    }

    @Test
    void writeRunCompletesWithTokensSummedOverTheTurnCachedInputApartAndTheLastMessageAsSummary() throws Exception {
        HarnessResult r = interpret("write", 0, CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // usage(100, 20, 30, 0) then usage(110, 5, 0, 0): codex says input_tokens 240, cached 30, and
        // cache_write_input_tokens 0 for a server that sent no cache-write figure: unmeasured
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, null, TokenUsage.Source.ADAPTER));
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.reason()).isNull();
        assertThat(r.cost()).as("codex prints no cost").isNull();
    }

    @Test
    void cacheWritesCountOnlyWhereTheServerReportedThem() throws Exception {
        List<String> stdout = captured("write.stdout.jsonl");
        List<String> stderr = captured("write.stderr.log");
        // every response.completed with a cache-write figure (0 and 0): a measured 0
        List<String> reported = stderr.stream().map(l -> l.contains("\"type\":\"response.completed\"")
                ? l.replaceFirst("\"input_tokens_details\":\\{", "\"input_tokens_details\":{\"cache_write_tokens\":0,") : l)
                .toList();
        assertThat(reported).anyMatch(l -> l.contains("cache_write_tokens"));
        assertThat(interpret("codex-write", stdout, reported, 0, Termination.exited(), CHANGED).tokens().cacheWrite())
                .isEqualTo(0L);
        // a figure the CLI printed above 0 came from the server
        List<String> written = stdout.stream().map(l -> l.replace("\"cache_write_input_tokens\":0", "\"cache_write_input_tokens\":12"))
                .toList();
        assertThat(interpret("codex-write", written, List.of(), 0, Termination.exited(), CHANGED).tokens().cacheWrite())
                .isEqualTo(12L);
        // without the log, the CLI's 0 says nothing
        assertThat(interpret("codex-write", stdout, List.of(), 0, Termination.exited(), CHANGED).tokens().cacheWrite())
                .isNull();
    }

    @Test
    void answeringModelComesFromTheLoggedResponsesEvents() throws Exception {
        assertThat(interpret("write", 0, CHANGED).servedModel())
                .isEqualTo(ServedModel.exact("codex-write", List.of("codex-write")));
        ServedModel swapped = interpret("swap", 0, NOTHING).servedModel();
        assertThat(swapped.answered()).containsExactly("codex-other");
        assertThat(swapped.verdict()).isEqualTo(ServedModel.Verdict.MISMATCH);
    }

    @Test
    void withoutTheLogTheAnsweringModelIsUnmeasured() throws Exception {
        HarnessResult r = interpret("codex-write", captured("write.stdout.jsonl"), List.of(), 0, Termination.exited(),
                CHANGED);

        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("codex-write"));
        assertThat(r.tokens().isMeasured()).isTrue();
    }

    @Test
    void talkOnlyRunWithoutChangesIsANoOpAndTheUnknownModelNoticeIsNoError() throws Exception {
        HarnessResult r = interpret("swap", 0, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.summary()).isEqualTo("Nothing to do.");
        assertThat(r.tokens().input()).isEqualTo(40);
    }

    @Test
    void rateLimitIsRateLimitedWithTheResetTimeFromTheLastLoggedResponse() throws Exception {
        List<String> stderr = captured("429.stderr.log");
        HarnessResult r = interpret("429", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("429");
        String last = stderr.get(stderr.size() - 1);
        Instant loggedAt = Instant.parse(last.substring(0, last.indexOf(' ')));
        assertThat(last).contains("\"retry-after-ms\": \"1000\"");
        assertThat(r.retryAt()).isEqualTo(loggedAt.plusMillis(1000));
        assertThat(r.tokens().isMeasured()).as("no turn completed: unmeasured, not 0").isFalse();
    }

    @Test
    void droppedConnectionIsTransient() throws Exception {
        HarnessResult r = interpret("drop", 1, NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("stream disconnected");
        assertThat(r.retryAt()).isNull();
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void httpStatusesInTheFailureMessageClassifyIt() {
        CodexEvents none = CodexEvents.of(List.of(), List.of());

        assertThat(CodexResults.fromFailure("unexpected status 401 Unauthorized: invalid API key, url: http://x/v1/responses",
                none).outcome()).isEqualTo(Outcome.AUTH);
        assertThat(CodexResults.fromFailure("exceeded retry limit, last status: 502 Bad Gateway", none).outcome())
                .isEqualTo(Outcome.TRANSIENT);
        assertThat(CodexResults.fromFailure("unexpected status 400 Bad Request: unknown parameter", none).outcome())
                .isEqualTo(Outcome.BAD_REQUEST);
        assertThat(CodexResults.fromFailure("Codex ran out of room in the model's context window. Start a new thread.",
                none).outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(CodexResults.fromFailure("something else broke", none).outcome()).isEqualTo(Outcome.ERROR);
    }

    @Test
    void retryAfterInSecondsOrAsAnHttpDateIsReadToo() {
        Instant at = Instant.parse("2026-12-01T15:46:32Z");
        assertThat(CodexResults.retryAt(new CodexEvents.HttpResponse(at, 429, java.util.Map.of("retry-after", "7"))))
                .isEqualTo(at.plusSeconds(7));
        assertThat(CodexResults.retryAt(new CodexEvents.HttpResponse(at, 429,
                java.util.Map.of("retry-after", "Tue, 01 Dec 2026 15:50:00 GMT"))))
                .isEqualTo(Instant.parse("2026-12-01T15:50:00Z"));
        assertThat(CodexResults.retryAt(new CodexEvents.HttpResponse(at, 429, java.util.Map.of()))).isNull();
    }

    @Test
    void nonZeroExitWithoutAFailedTurnIsAnErrorWithTheStderrTail() throws Exception {
        HarnessResult r = interpret("codex-x", List.of(), List.of("Error: config.toml: unknown field"), 1,
                Termination.exited(), NOTHING);

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with 1").contains("unknown field");
        assertThat(r.tokens().isMeasured()).isFalse();
    }

    @Test
    void aGuardStopWinsOverWhateverCodexPrinted() throws Exception {
        HarnessResult r = interpret("codex-write", captured("write.stdout.jsonl"), List.of(), null,
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no output for 90 s"), CHANGED);

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).isEqualTo("no output for 90 s");
    }
}
