package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ServedModel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading usage, models and errors off the wire, per API style, fed in awkward pieces. */
class WireReadingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static WireReading read(WireStyle style, String contentType, String body, int piece) {
        WireReading r = new WireReading(style);
        BodyReader reader = BodyReader.of(contentType, r, JSON);
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i += piece) {
            reader.feed(b, i, Math.min(piece, b.length - i));
        }
        reader.finish();
        return r;
    }

    @Test
    void anthropicStreamTakesInputAndCacheFromMessageStartAndOutputFromMessageDelta() {
        for (int piece : new int[] {1, 3, 7, 4096}) {
            WireReading r = read(WireStyle.ANTHROPIC, "text/event-stream; charset=utf-8", MeterTest.ANTHROPIC_SSE, piece);
            assertThat(r.malformed).isFalse();
            assertThat(r.answeredModel).isEqualTo("claude-haiku-4-5-20251001");
            assertThat(List.of(r.input, r.output, r.cacheRead, r.cacheWrite)).containsExactly(1234L, 56L, 200L, 100L);
        }
    }

    @Test
    void chatCompletionsStreamTakesTheFinalUsageChunkAndSubtractsCachedTokens() {
        String sse = "data: {\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"delta\":"
                + "{\"content\":\"hi\"}}],\"usage\":null}\r\n\r\n"
                + "data: {\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":1534,\"completion_tokens\":56,\"prompt_tokens_details\":{\"cached_tokens\":300}}}\r\n\r\n"
                + "data: [DONE]\r\n\r\n";
        for (int piece : new int[] {1, 2, 5, 4096}) {
            WireReading r = read(WireStyle.CHAT, "text/event-stream", sse, piece);
            assertThat(r.usageSeen).isTrue();
            assertThat(r.input).isEqualTo(1234);
            assertThat(r.cacheRead).isEqualTo(300);
            assertThat(r.output).isEqualTo(56);
            assertThat(r.cacheWrite).isNull();
            assertThat(r.answeredModel).isEqualTo("gpt-4o-2024-08-06");
        }
    }

    @Test
    void aChatStreamWithoutUsageIsUnmeasured() {
        WireReading r = read(WireStyle.CHAT, "text/event-stream",
                "data: {\"model\":\"m\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n", 4096);
        assertThat(r.usageSeen).isFalse();
        assertThat(r.input).isNull();
        assertThat(r.answeredModel).isEqualTo("m");
    }

    @Test
    void responsesStreamTakesResponseCompleted() {
        String sse = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"model\":\"o4\"}}\n\n"
                + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"model\":\"o4-mini\","
                + "\"usage\":{\"input_tokens\":500,\"output_tokens\":20,\"input_tokens_details\":{\"cached_tokens\":100}}}}\n\n";
        WireReading r = read(WireStyle.RESPONSES, "text/event-stream", sse, 9);
        assertThat(List.of(r.input, r.output, r.cacheRead)).containsExactly(400L, 20L, 100L);
        assertThat(r.answeredModel).isEqualTo("o4-mini");
    }

    @Test
    void ollamaNdjsonTakesTheDoneLine() {
        String nd = "{\"model\":\"qwen3:8b\",\"message\":{\"content\":\"a\"},\"done\":false}\n"
                + "{\"model\":\"qwen3:8b\",\"done\":true,\"prompt_eval_count\":77,\"eval_count\":9}\n";
        WireReading r = read(WireStyle.OLLAMA, "application/x-ndjson", nd, 5);
        assertThat(List.of(r.input, r.output)).containsExactly(77L, 9L);
        assertThat(r.answeredModel).isEqualTo("qwen3:8b");
    }

    @Test
    void errorBodiesOfEachShapeGiveTypeAndMessage() {
        WireReading a = read(WireStyle.ANTHROPIC, "application/json",
                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long\"}}", 4096);
        assertThat(a.errorType).isEqualTo("invalid_request_error");
        assertThat(a.errorMessage).isEqualTo("prompt is too long");
        WireReading o = read(WireStyle.OLLAMA, "application/json", "{\"error\":\"model not found\"}", 4096);
        assertThat(o.errorMessage).isEqualTo("model not found");
    }

    @Test
    void anOversizedEventIsSkippedAndMarksTheReadingMalformedWithoutHoldingIt() {
        String big = "data: {\"x\":\"" + "y".repeat(BodyReader.MAX_EVENT_BYTES + 10) + "\"}\n\n";
        WireReading r = read(WireStyle.ANTHROPIC, "text/event-stream", big + MeterTest.ANTHROPIC_SSE, 64 * 1024);
        assertThat(r.malformed).isTrue();
        assertThat(r.input).as("later events are still read").isEqualTo(1234);
    }

    @Test
    void servedModelRulesAliasesDatesContextSuffixesAndProviderPrefixes() {
        assertThat(ModelMatch.verdict("haiku", List.of("claude-haiku-4-5-20251001")).verdict())
                .isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(ModelMatch.verdict("claude-sonnet-4-5[1m]", List.of("claude-sonnet-4-5-20250929")).verdict())
                .isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(ModelMatch.verdict("openai/gpt-4o", List.of("gpt-4o-2024-08-06")).verdict())
                .isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(ModelMatch.verdict("ollama/qwen3:8b", List.of("qwen3:8b")).verdict()).isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(ModelMatch.verdict("haiku", List.of("claude-sonnet-4-5")).verdict()).isEqualTo(ServedModel.Verdict.MISMATCH);
        assertThat(ModelMatch.verdict("gpt-4o", List.of("gpt-4o", "gpt-4o-mini")).verdict())
                .isEqualTo(ServedModel.Verdict.MISMATCH);
        assertThat(ModelMatch.verdict("m", List.of()).verdict()).isEqualTo(ServedModel.Verdict.UNMEASURED);
    }

    @Test
    void retryTimesFromEachHeaderAndFromTheMessage() {
        Instant t = Instant.parse("2026-12-01T12:00:00Z");
        assertThat(RetryAt.of(Map.of("retry-after", "30"), null, null, t)).isEqualTo(t.plusSeconds(30));
        assertThat(RetryAt.of(Map.of("retry-after", "Tue, 01 Dec 2026 12:05:00 GMT"), null, null, t))
                .isEqualTo(t.plus(Duration.ofMinutes(5)));
        assertThat(RetryAt.of(Map.of("anthropic-ratelimit-tokens-reset", "2026-12-01T12:01:00Z",
                "anthropic-ratelimit-requests-reset", "2026-12-01T12:00:30Z"), null, null, t)).isEqualTo(t.plusSeconds(60));
        assertThat(RetryAt.of(Map.of("x-ratelimit-reset-tokens", "6m0s", "x-ratelimit-reset-requests", "20ms"), null, null, t))
                .isEqualTo(t.plus(Duration.ofMinutes(6)));
        assertThat(RetryAt.of(Map.of(), "Rate limit reached. Please try again in 20s.", null, t)).isEqualTo(t.plusSeconds(20));
        assertThat(RetryAt.of(Map.of(), "slow down", null, t)).isNull();
    }

    @Test
    void theHeadersWinOverTheBodyAndGooglesRetryInfoOverItsWording() {
        Instant t = Instant.parse("2026-12-01T12:00:00Z");
        String body = "Rate limit reached for requests. Please try again in 20s.";
        assertThat(RetryAt.of(Map.of("retry-after", "3"), body, null, t)).isEqualTo(t.plusSeconds(3));
        assertThat(RetryAt.of(Map.of("retry-after", "3"), body, Duration.ofSeconds(40), t)).isEqualTo(t.plusSeconds(3));
        assertThat(RetryAt.fromHeaders(Map.of(), t)).isNull();
        assertThat(RetryAt.of(Map.of(), "Please retry in 12.5s.", Duration.ofMillis(12_345), t))
                .as("the structured delay, not the rounded words").isEqualTo(t.plusMillis(12_345));
        assertThat(RetryAt.fromBody(body, null, t)).isEqualTo(t.plusSeconds(20));
    }

    @Test
    void anOutOfQuotaMessageGivesItsResetInstant() {
        Instant t = Instant.parse("2026-12-01T12:00:00Z");
        assertThat(RetryAt.of(Map.of(), "You exceeded your current quota; it resets at 2026-12-01T15:00:00Z.", null, t))
                .isEqualTo(Instant.parse("2026-12-01T15:00:00Z"));
        assertThat(RetryAt.of(Map.of(), "Claude AI usage limit reached|1764604800", null, t))
                .isEqualTo(Instant.ofEpochSecond(1764604800));
        // a relative wait and a header still win over the instant
        assertThat(RetryAt.of(Map.of("retry-after", "30"), "quota exceeded, resets at 2026-12-01T15:00:00Z", null, t))
                .isEqualTo(t.plusSeconds(30));
        assertThat(RetryAt.of(Map.of(), "insufficient_quota", null, t)).isNull();
    }
}
