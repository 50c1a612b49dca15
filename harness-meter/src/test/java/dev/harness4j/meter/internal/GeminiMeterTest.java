package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meter on Google's Gemini API: usage, models, errors, and the key kept out of every file. */
class GeminiMeterTest {
    private static final String KEY = "AIza-gemini-meter-test-key-0123456789";
    private static final String PATH = "/v1beta/models/gemini-2.5-pro:streamGenerateContent";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Two chunks, as Google sends them: each with the usage so far, the second with thinking. */
    static final String SSE = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}],\"role\":\"model\"},"
            + "\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":1534,\"totalTokenCount\":1534,"
            + "\"cachedContentTokenCount\":300},\"modelVersion\":\"gemini-2.5-pro\",\"responseId\":\"r1\"}\r\n\r\n"
            + "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"lo\"}],\"role\":\"model\"},"
            + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":1534,"
            + "\"candidatesTokenCount\":56,\"thoughtsTokenCount\":44,\"cachedContentTokenCount\":300,"
            + "\"totalTokenCount\":1634},\"modelVersion\":\"gemini-2.5-pro\",\"responseId\":\"r1\"}\r\n\r\n";

    @TempDir Path tmp;
    private Upstream upstream;
    private Meter meter;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void setUp() throws IOException {
        upstream = new Upstream();
        meter = Meter.start();
    }

    @AfterEach
    void tearDown() {
        meter.close();
        upstream.close();
    }

    private MeterRun open() throws IOException {
        ResolvedProvider p = new ResolvedProvider("google", EnumSet.of(ApiStyle.GEMINI), upstream.url(""),
                Secret.of(KEY), AuthScheme.API_KEY, "gemini-2.5-pro");
        return meter.open("run-1", p, MeterRun.Hooks.NONE, Limits.NONE, null, tmp.resolve("requests.jsonl"),
                tmp.resolve("bodies"), 1 << 20);
    }

    private HttpResponse<String> post(MeterRun run, String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(run.provider().rootUrl() + pathAndQuery))
                .header("x-goog-api-key", run.provider().secret().reveal()).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"go\"}]}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStyleAndTheRequestedModelComeFromThePath() {
        assertThat(WireStyle.ofPath(PATH)).isEqualTo(WireStyle.GEMINI);
        assertThat(WireStyle.ofPath("/v1beta/models/gemini-2.5-flash:generateContent")).isEqualTo(WireStyle.GEMINI);
        assertThat(WireStyle.ofPath("/v1beta/models/gemini-2.5-flash:countTokens")).isEqualTo(WireStyle.OTHER);
        assertThat(WireStyle.ofPath("/v1beta/models")).isEqualTo(WireStyle.OTHER);
        assertThat(WireStyle.geminiModel(PATH)).isEqualTo("gemini-2.5-pro");
        assertThat(WireStyle.geminiModel("/v1/models/gemini%2D2.5:generateContent")).isEqualTo("gemini-2.5");
        assertThat(WireStyle.geminiModel("/v1beta/models/:generateContent")).isNull();
        assertThat(ModelMatch.matches("gemini-2.5-pro", "models/gemini-2.5-pro")).isTrue();
        assertThat(ModelMatch.matches("gemini-2.5-pro", "gemini-2.5-flash")).isFalse();
    }

    @Test
    void usageCountsCachedInputApartAndThinkingAsOutput() {
        WireReading r = new WireReading(WireStyle.GEMINI);
        BodyReader reader = BodyReader.of("text/event-stream", r, JSON);
        byte[] b = SSE.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i += 5) {
            reader.feed(b, i, Math.min(5, b.length - i));
        }
        reader.finish();

        assertThat(r.malformed).isFalse();
        assertThat(r.usageSeen).isTrue();
        assertThat(List.of(r.input, r.cacheRead, r.output)).containsExactly(1234L, 300L, 100L);
        assertThat(r.cacheWrite).isNull();
        assertThat(r.answeredModel).isEqualTo("gemini-2.5-pro");
    }

    @Test
    void aStreamedCallIsMeteredAndTheKeyReachesNoFileEitherWayItIsSent() throws Exception {
        upstream.on(PATH, ex -> Upstream.send(ex, 200, "text/event-stream", SSE));
        try (MeterRun run = open()) {
            HttpResponse<String> header = post(run, PATH + "?alt=sse");
            HttpResponse<String> query = post(run, PATH + "?alt=sse&key=" + run.provider().secret().reveal());

            assertThat(header.body()).isEqualTo(SSE);
            assertThat(query.body()).isEqualTo(SSE);
            assertThat(upstream.received.get(0).headers().get("x-goog-api-key")).containsExactly(KEY);
            assertThat(upstream.received.get(1).query()).isEqualTo("alt=sse&key=" + KEY);
            MeterReport report = run.finish();
            assertThat(report.modelRequests()).isEqualTo(2);
            assertThat(report.measuredRequests()).isEqualTo(2);
            assertThat(report.tokens().input()).isEqualTo(2 * 1234);
            assertThat(report.tokens().cacheRead()).isEqualTo(2 * 300);
            assertThat(report.tokens().output()).isEqualTo(2 * 100);
            assertThat(report.answered()).containsExactly("gemini-2.5-pro");
            assertThat(report.lastModel().requestedModel()).isEqualTo("gemini-2.5-pro");
            assertThat(report.lastModel().path()).isEqualTo(PATH);
        }
        String records = Files.readString(tmp.resolve("requests.jsonl"));
        assertThat(records).contains("\"requested_model\":\"gemini-2.5-pro\"").doesNotContain(KEY)
                .doesNotContain("key=").doesNotContain("x-goog-api-key");
        try (Stream<Path> files = Files.walk(tmp.resolve("bodies"))) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertThat(all).isNotEmpty();
            for (Path f : all) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain(KEY);
            }
        }
    }

    @Test
    void aRateLimitInGooglesShapeGivesTheRetryDelayOfItsRetryInfo() throws Exception {
        upstream.on(PATH, ex -> Upstream.send(ex, 429, "application/json", "{\"error\":{\"code\":429,"
                + "\"message\":\"Resource has been exhausted (e.g. check quota).\",\"status\":\"RESOURCE_EXHAUSTED\","
                + "\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"37s\"}]}}"));
        try (MeterRun run = open()) {
            Instant before = Instant.now();
            post(run, PATH + "?alt=sse&key=" + run.provider().secret().reveal());
            RequestRecord r = run.finish().lastModel();

            assertThat(r.errorType()).isEqualTo("RESOURCE_EXHAUSTED");
            assertThat(r.errorMessage()).startsWith("Resource has been exhausted");
            assertThat(r.retryAt()).isBetween(before.plusSeconds(36), before.plusSeconds(60));
            assertThat(WireTruth.classify(r)).isEqualTo(Outcome.RATE_LIMITED);
            assertThat(r.input()).isNull();
        }
        assertThat(Files.readString(tmp.resolve("requests.jsonl"))).doesNotContain(KEY);
    }

    @Test
    void aRetryAfterHeaderWinsOverTheBody() throws Exception {
        upstream.on(PATH, ex -> {
            ex.getResponseHeaders().set("retry-after", "5");
            Upstream.send(ex, 429, "application/json", "{\"error\":{\"code\":429,\"message\":\"slow down\","
                    + "\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
                    + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"600s\"}]}}");
        });
        try (MeterRun run = open()) {
            Instant before = Instant.now();
            post(run, PATH + "?alt=sse");
            RequestRecord r = run.finish().lastModel();

            assertThat(r.retryAt()).isBetween(before.plusSeconds(4), before.plusSeconds(60));
        }
    }
}
