package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.Secret;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interprets output that the real aider 0.86.2 printed against a local OpenAI-style server
 * answering a whole-file edit, a chat-only reply, 401, 429, 400 (context length), 500 and a
 * refused connection (recorded under {@code transcripts/}).
 */
class AiderInterpretTest {
    private static final GitChanges MOVED = new GitChanges("a1", "b2", true, false, List.of("hello.txt"), 1, 0);
    private static final GitChanges NONE = GitChanges.none("a1");
    private static final Instant FINISHED = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path tmp;

    private final AiderHarness harness = new AiderHarness();

    private HarnessResult interpret(String stdout, Integer exit, Termination termination, GitChanges changes)
            throws IOException {
        return interpret(stdout, "", exit, termination, changes);
    }

    private HarnessResult interpret(String stdout, String stderr, Integer exit, Termination termination,
            GitChanges changes) throws IOException {
        return interpret(stdout, stderr, exit, termination, changes, Map.of(), FINISHED);
    }

    private HarnessResult interpret(String stdout, String stderr, Integer exit, Termination termination,
            GitChanges changes, Map<String, String> options, Instant finishedAt) throws IOException {
        HarnessContext ctx = AiderLaunchTest.context(AiderLaunchTest.provider(Secret.of("sk-test-secret"), ApiStyle.OPENAI))
                .scratchDir(tmp).options(options).build();
        Path out = Files.writeString(tmp.resolve("stdout"), stdout);
        Path err = Files.writeString(tmp.resolve("stderr"), stderr);
        return harness.interpret(new Execution(ctx, harness.prepare(ctx), exit, termination, out, err, changes,
                Duration.ofSeconds(7), finishedAt));
    }

    private static String transcript(String name) throws IOException {
        try (InputStream in = AiderInterpretTest.class.getResourceAsStream("transcripts/" + name)) {
            assertThat(in).as("transcript %s", name).isNotNull();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void anEditThatMovedHeadIsCompletedWithTheTokensAiderPrinted() throws IOException {
        HarnessResult r = interpret(transcript("write-file-streamed.txt"), 0, Termination.exited(), MOVED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.reason()).isNull();
        assertThat(r.tokens()).as("streamed: aider's own tokenizer counted them")
                .isEqualTo(new TokenUsage(770L, 10L, null, null, TokenUsage.Source.ESTIMATE));
        assertThat(r.cost()).isNull();
        assertThat(r.servedModel()).isEqualTo(ServedModel.unmeasured("qwen-coder"));
    }

    @Test
    void withoutStreamingTheTokensAreTheEndpointsUsageAsAiderPrintedIt() throws IOException {
        HarnessResult r = interpret(transcript("write-file-not-streamed.txt"), "", 0, Termination.exited(), MOVED,
                Map.of(AiderOptions.STREAM, "false"), FINISHED);

        assertThat(r.tokens().source()).isEqualTo(TokenUsage.Source.ADAPTER);
    }

    @Test
    void anEditLeftUncommittedIsCompletedToo() throws IOException {
        GitChanges dirty = new GitChanges("a1", "a1", false, true, List.of("hello.txt"), 1, 0);

        assertThat(interpret(transcript("write-file-not-streamed.txt"), 0, Termination.exited(), dirty).outcome())
                .isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void aChatOnlyReplyIsANoOp() throws IOException {
        HarnessResult r = interpret(transcript("chat-only.txt"), 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.tokens().output()).isEqualTo(5L);
    }

    @Test
    void aRefusedKeyIsAuthThoughAiderExitedZero() throws IOException {
        HarnessResult r = interpret(transcript("http-401.txt"), 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).contains("litellm.AuthenticationError").contains("not able to authenticate you");
        assertThat(r.tokens()).isEqualTo(TokenUsage.unmeasured());
    }

    @Test
    void aRateLimitAiderGaveUpOnIsRateLimited() throws IOException {
        HarnessResult r = interpret(transcript("http-429.txt"), 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).contains("litellm.RateLimitError");
        assertThat(r.retryAt()).as("the text names no wait").isNull();
    }

    @Test
    void aRateLimitWhoseBodyNamesAWaitResetsThatLongAfterTheProcessEnded() throws IOException {
        String out = transcript("http-429-try-again.txt");
        assertThat(out).contains("Please try again in 20s");

        HarnessResult r = interpret(out, 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.retryAt()).isEqualTo(FINISHED.plusSeconds(20));
        assertThat(interpret(out, "", 0, Termination.exited(), NONE, Map.of(), null).retryAt())
                .as("no end time, no reset time: nothing but the execution is consulted").isNull();
    }

    @Test
    void anExceededContextWindowIsContextOverflow() throws IOException {
        HarnessResult r = interpret(transcript("http-400-context.txt"), 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(r.reason()).contains("has hit a token limit");
        assertThat(transcript("http-400-context.txt")).contains("Tokens: 770 sent, 0 received.");
        assertThat(r.tokens()).as("aider's pre-send count of a request the endpoint rejected is no usage")
                .isEqualTo(TokenUsage.unmeasured());
    }

    @Test
    void aRejectedRequestOfAPricedModelHasNeitherTokensNorCostButEarlierMessagesKeepTheirs() throws IOException {
        String rejected = """
                Tokens: 950 sent, 0 received. Cost: $0.0024 message, $0.0024 session.

                Model openai/gpt-4o has hit a token limit!
                Token counts below are approximate.
                """;
        HarnessResult alone = interpret(rejected, 0, Termination.exited(), NONE);

        assertThat(alone.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(alone.tokens()).isEqualTo(TokenUsage.unmeasured());
        assertThat(alone.cost()).isNull();

        HarnessResult after = interpret("""
                Tokens: 1.2k sent, 40 received.
                Cost: $0.0031 message, $0.0031 session.
                Applied edit to hello.txt
                """ + rejected.replace("$0.0024 session", "$0.0055 session"), 0, Termination.exited(), MOVED);

        assertThat(after.tokens()).isEqualTo(new TokenUsage(1200L, 40L, null, null, TokenUsage.Source.ESTIMATE));
        assertThat(after.cost().usd()).isEqualByComparingTo("0.0031");
    }

    @Test
    void serverErrorsAndARefusedConnectionAreTransient() throws IOException {
        assertThat(interpret(transcript("http-500.txt"), 0, Termination.exited(), NONE).outcome())
                .isEqualTo(Outcome.TRANSIENT);
        assertThat(interpret(transcript("connection-refused.txt"), 0, Termination.exited(), NONE).outcome())
                .isEqualTo(Outcome.TRANSIENT);
    }

    @Test
    void aConnectionDroppedMidAnswerIsTransientThoughTheErrorFollowsThePartialText() throws IOException {
        String out = transcript("dropped-connection.txt");
        assertThat(out).doesNotContainPattern("(?m)^litellm\\.");

        HarnessResult r = interpret(out, 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).contains("gave up on a model call: litellm.APIConnectionError");
    }

    @Test
    void aRunTheMeterStoppedNamesTheStopAndAidersLastModelError() throws IOException {
        Termination stop = new Termination(Termination.Kind.ENDPOINT_FAILING,
                "stopped by harness4j after 5 failed model requests in a row");

        HarnessResult r = interpret(transcript("dropped-connection.txt"), null, stop, NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.reason()).startsWith("aider was stopped: stopped by harness4j after 5 failed model requests")
                .contains("; aider's last model error: litellm.APIConnectionError");
        assertThat(interpret("", null, stop, NONE).reason()).doesNotContain("last model error");
    }

    @Test
    void litellmNamesInsideTheModelsOwnTextAreNoError() throws IOException {
        String out = "To catch it, handle litellm.SomethingWeird: it is raised on retries.\nTokens: 900 sent, 40 received.\n";

        assertThat(interpret(out, 0, Termination.exited(), NONE).outcome()).isEqualTo(Outcome.NO_OP);
    }

    @Test
    void aBadRequestThatNamesTheContextLengthIsContextOverflow() throws IOException {
        String out = "litellm.BadRequestError: OpenAIException - This model's maximum context length is 8192 tokens\n";

        assertThat(interpret(out, 0, Termination.exited(), NONE).outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
    }

    @Test
    void otherBadRequestsAndUnknownModelsAreBadRequest() throws IOException {
        assertThat(interpret("litellm.BadRequestError: OpenAIException - temperature is not supported\n", 0,
                Termination.exited(), NONE).outcome()).isEqualTo(Outcome.BAD_REQUEST);
        assertThat(interpret("litellm.NotFoundError: NotFoundError: OpenAIException - model not found\n", 0,
                Termination.exited(), NONE).outcome()).isEqualTo(Outcome.BAD_REQUEST);
    }

    @Test
    void aRateLimitRetriedUntilAReplyCameBackDoesNotCount() throws IOException {
        String out = """
                litellm.RateLimitError: RateLimitError: OpenAIException - slow down
                The API provider has rate limited you. Try again later or check your quotas.
                Retrying in 0.2 seconds...
                hello.txt
                Tokens: 1.5k sent, 40 received.
                Applied edit to hello.txt
                Commit 1234abc add hello
                """;

        HarnessResult r = interpret(out, 0, Termination.exited(), MOVED);

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.tokens().input()).isEqualTo(1500L);
    }

    @Test
    void aFailedCommitMessageDoesNotFailAnEditThatLanded() throws IOException {
        String out = """
                Tokens: 900 sent, 40 received.
                Applied edit to hello.txt
                litellm.AuthenticationError: AuthenticationError: OpenAIException - bad key for weak model
                The API provider is not able to authenticate you. Check your API key.
                Failed to generate commit message!
                Commit 1234abc (no commit message provided)
                """;

        assertThat(interpret(out, 0, Termination.exited(), MOVED).outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void anErrorOnALaterMessageWinsOverEarlierChanges() throws IOException {
        String out = """
                Tokens: 900 sent, 40 received.
                Applied edit to hello.txt
                Commit 1234abc add hello
                litellm.RateLimitError: RateLimitError: OpenAIException - slow down
                The API provider has rate limited you. Try again later or check your quotas.
                """;

        assertThat(interpret(out, 0, Termination.exited(), MOVED).outcome()).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void aReplyThatBrokeTheEditFormatAndChangedNothingIsAnError() throws IOException {
        String out = "Tokens: 900 sent, 40 received.\nThe LLM did not conform to the edit format.\n";

        HarnessResult r = interpret(out, 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("edit format");
    }

    @Test
    void aNonZeroExitIsAnErrorThatQuotesStderr() throws IOException {
        HarnessResult r = interpret("", "Traceback (most recent call last):\nModuleNotFoundError: No module named 'aider'\n",
                1, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("exited with code 1").contains("No module named 'aider'");
    }

    @Test
    void theGuardsStopWinsOverWhatAiderPrinted() throws IOException {
        HarnessResult r = interpret(transcript("http-429.txt"), null,
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no new output within 30 s"), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).contains("no new output within 30 s");
    }

    @Test
    void aStartFailureIsAnError() throws IOException {
        HarnessResult r = interpret("", null, new Termination(Termination.Kind.START_FAILED, "no such file: /bin/sh"), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("could not be started").contains("no such file");
    }

    @Test
    void readsTheCostAndCacheFiguresOfAPricedModel() throws IOException {
        HarnessResult priced = interpret(transcript("priced.txt"), 0, Termination.exited(), MOVED);
        HarnessResult cached = interpret(transcript("priced-with-cache.txt"), 0, Termination.exited(), MOVED);

        assertThat(priced.tokens()).isEqualTo(new TokenUsage(12_000L, 1200L, null, null, TokenUsage.Source.ESTIMATE));
        assertThat(priced.cost().usd()).isEqualByComparingTo(new BigDecimal("0.0024"));
        assertThat(cached.tokens()).isEqualTo(new TokenUsage(10_500L, 1200L, 1500L, 2000L, TokenUsage.Source.ESTIMATE));
        assertThat(cached.cost().usd()).isEqualByComparingTo(new BigDecimal("0.0022"));
    }

    @Test
    void neverPutsTheKeyInTheReason() throws IOException {
        String out = "litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided: sk-test-secret\n";

        HarnessResult r = interpret(out, 0, Termination.exited(), NONE);

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).doesNotContain("sk-test-secret").contains("***");
    }
}
