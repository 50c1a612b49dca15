package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
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
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recordBodies opt-in: real HTTP through the meter to a real upstream, bodies copied to disk. */
class BodyRecordingTest {
    private static final String KEY = "sk-body-recording-key-0099";
    private static final ObjectMapper JSON = new ObjectMapper();

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

    private MeterRun open(long cap) throws IOException {
        ResolvedProvider p = new ResolvedProvider("p", EnumSet.of(ApiStyle.ANTHROPIC), upstream.url(""), Secret.of(KEY),
                AuthScheme.API_KEY, "claude-haiku-4-5");
        return meter.open("run-1", p, MeterRun.Hooks.NONE, Limits.NONE, null, tmp.resolve("requests.jsonl"),
                tmp.resolve("bodies"), cap);
    }

    private HttpResponse<byte[]> post(MeterRun run, String path, byte[] body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(run.provider().baseUrl() + path))
                .header("x-api-key", run.provider().secret().reveal()).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void keepsBothBodiesOfAStreamedCallAndForwardsEveryByteUnchanged() throws Exception {
        byte[] sse = MeterTest.ANTHROPIC_SSE.getBytes(StandardCharsets.UTF_8);
        upstream.on("/v1/messages", ex -> Upstream.stream(ex, "text/event-stream",
                MeterTest.pieces(sse, 7, 100, 101, 250)));
        byte[] request = ("{\"model\":\"claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"h\u00e9 "
                + KEY + "\"}]}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> resp;
        try (MeterRun run = open(BodyRecorder.MAX_BODY_BYTES)) {
            resp = post(run, "/v1/messages", request);
        }
        assertThat(resp.body()).isEqualTo(sse);
        assertThat(upstream.received.get(0).body()).isEqualTo(request);
        Path dir = tmp.resolve("bodies");
        assertThat(Files.readAllBytes(dir.resolve("000001.request"))).isEqualTo(request);
        assertThat(Files.readAllBytes(dir.resolve("000001.response"))).isEqualTo(sse);
        List<String> index = Files.readAllLines(dir.resolve(BodyRecorder.INDEX));
        assertThat(index).hasSize(1);
        JsonNode line = JSON.readTree(index.get(0));
        assertThat(line.path("n").asText()).isEqualTo("000001");
        assertThat(line.path("content_type").asText()).isEqualTo("text/event-stream");
        assertThat(line.path("answered_model").asText()).isEqualTo("claude-haiku-4-5-20251001");
        assertThat(line.path("usage").path("output").asLong()).isEqualTo(56);
        assertThat(line.path("response_truncated").asBoolean()).isFalse();
        assertThat(index.get(0)).doesNotContain(KEY);
    }

    @Test
    void cutsABodyPastTheCapWithAMarkerWhileTheClientGetsItWhole() throws Exception {
        StringBuilder big = new StringBuilder("{\"model\":\"m\",\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2},"
                + "\"choices\":[{\"message\":{\"content\":\"");
        big.append("x".repeat(200_000)).append("\"}}]}");
        String answer = big.toString();
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", answer));
        byte[] request = "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> resp;
        try (MeterRun run = open(1000)) {
            resp = post(run, "/v1/chat/completions", request);
        }
        assertThat(new String(resp.body(), StandardCharsets.UTF_8)).isEqualTo(answer);
        String kept = Files.readString(tmp.resolve("bodies/000001.response"));
        assertThat(kept).startsWith(answer.substring(0, 1000))
                .endsWith(BodyRecorder.marker(1000, answer.length()))
                .hasSize(1000 + BodyRecorder.marker(1000, answer.length()).length());
        JsonNode line = JSON.readTree(Files.readAllLines(tmp.resolve("bodies/index.jsonl")).get(0));
        assertThat(line.path("response_truncated").asBoolean()).isTrue();
        assertThat(line.path("response_bytes").asLong()).isEqualTo(answer.length());
        assertThat(line.path("usage").path("output").isNull()).as("a cut copy never changes the meter's reading")
                .isFalse();
    }

    @Test
    void recordsNothingForRequestsThatAreNotModelCalls() throws Exception {
        upstream.on("/v1/models", ex -> Upstream.send(ex, 200, "application/json", "{\"data\":[]}"));
        try (MeterRun run = open(BodyRecorder.MAX_BODY_BYTES)) {
            client.send(HttpRequest.newBuilder(URI.create(run.provider().baseUrl() + "/v1/models")).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        }
        assertThat(Files.readAllLines(tmp.resolve("bodies/index.jsonl"))).isEmpty();
        try (var files = Files.list(tmp.resolve("bodies"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("index.jsonl");
        }
    }
}
