package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meter against a real loopback upstream, with a real HTTP client as the CLI. */
class MeterTest {
    private static final String KEY = "sk-meter-test-key-1234567890";
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

    private static ResolvedProvider provider(URI base) {
        return new ResolvedProvider("p", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI), base, Secret.of(KEY),
                AuthScheme.API_KEY, "claude-haiku-4-5");
    }

    private MeterRun open(URI base) throws IOException {
        return meter.open("run-1", provider(base), MeterRun.Hooks.NONE, Limits.NONE, null, tmp.resolve("requests.jsonl"));
    }

    private List<JsonNode> records() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(tmp.resolve("requests.jsonl"))) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    static final String ANTHROPIC_SSE = "event: message_start\n"
            + "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"model\":\"claude-haiku-4-5-20251001\","
            + "\"usage\":{\"input_tokens\":1234,\"cache_creation_input_tokens\":100,\"cache_read_input_tokens\":200,"
            + "\"output_tokens\":1}}}\r\n\r\n"
            + "event: content_block_delta\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"h\u00e9llo\"}}\n\n"
            + "event: message_delta\n"
            + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":56}}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    /** The body cut into pieces at awkward places (inside a CRLF, inside a UTF-8 character, inside JSON). */
    static List<byte[]> pieces(byte[] all, int... cuts) {
        List<byte[]> out = new ArrayList<>();
        int from = 0;
        for (int c : cuts) {
            out.add(java.util.Arrays.copyOfRange(all, from, c));
            from = c;
        }
        out.add(java.util.Arrays.copyOfRange(all, from, all.length));
        return out;
    }

    @Test
    void forwardsAStreamedExchangeByteForByteAndReadsItsUsageAndModel() throws Exception {
        byte[] sse = ANTHROPIC_SSE.getBytes(StandardCharsets.UTF_8);
        int crlf = ANTHROPIC_SSE.indexOf("\r\n") + 1;
        upstream.on("/v1/messages", ex -> Upstream.stream(ex, "text/event-stream", pieces(sse, 7, crlf, crlf + 3,
                ANTHROPIC_SSE.indexOf("llo") - 1, sse.length - 5)));
        byte[] requestBody = new byte[300_000];
        new Random(7).nextBytes(requestBody);
        byte[] head = "{\"model\":\"claude-haiku-4-5\",\"x\":\"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, requestBody, 0, head.length);
        try (MeterRun run = open(upstream.url(""))) {
            URI url = URI.create(run.provider().v1Url() + "/messages?beta=true");
            HttpResponse<byte[]> resp = client.send(HttpRequest.newBuilder(url)
                    .header("x-api-key", run.provider().secret().reveal())
                    .header("authorization", "Bearer " + run.provider().secret().reveal()).header("anthropic-version", "2023-06-01")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(requestBody)).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(resp.statusCode()).isEqualTo(200);
            assertThat(resp.body()).isEqualTo(sse);
            assertThat(resp.headers().firstValue("content-type")).hasValue("text/event-stream");
            Upstream.Received got = upstream.received.get(0);
            assertThat(got.body()).isEqualTo(requestBody);
            assertThat(got.path()).isEqualTo("/v1/messages");
            assertThat(got.query()).isEqualTo("beta=true");
            assertThat(got.headers().get("x-api-key")).containsExactly(KEY);
            assertThat(got.headers().get("authorization")).containsExactly("Bearer " + KEY);
            assertThat(got.headers().get("anthropic-version")).containsExactly("2023-06-01");

            MeterReport report = run.finish();
            assertThat(report.modelRequests()).isEqualTo(1);
            assertThat(report.measuredRequests()).isEqualTo(1);
            assertThat(report.tokens().input()).isEqualTo(1234);
            assertThat(report.tokens().output()).isEqualTo(56);
            assertThat(report.tokens().cacheRead()).isEqualTo(200);
            assertThat(report.tokens().cacheWrite()).isEqualTo(100);
            assertThat(report.answered()).containsExactly("claude-haiku-4-5-20251001");
            JsonNode r = records().get(0);
            assertThat(r.path("path").asText()).isEqualTo("/v1/messages");
            assertThat(r.path("requested_model").asText()).isEqualTo("claude-haiku-4-5");
            assertThat(r.path("bytes_up").asLong()).isEqualTo(requestBody.length);
            assertThat(r.path("bytes_down").asLong()).isEqualTo(sse.length);
            String text = Files.readString(tmp.resolve("requests.jsonl"));
            assertThat(text).doesNotContain(KEY).doesNotContainIgnoringCase("authorization")
                    .doesNotContain("x-api-key").doesNotContain(run.provider().baseUrl().getPath().split("/")[2]);
        }
    }

    @Test
    void keepsTheShapeOfABaseUrlWithAPathOrEndingInV1() throws Exception {
        upstream.on("/api/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json",
                "{\"model\":\"gpt-x\",\"usage\":{\"prompt_tokens\":1534,\"completion_tokens\":56,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":200}}}"));
        for (String base : List.of("/api/v1", "/api/v1/", "/api")) {
            try (MeterRun run = open(upstream.url(base))) {
                assertThat(run.provider().baseUrl().toString().endsWith("/v1")).isEqualTo(base.startsWith("/api/v1"));
                HttpResponse<String> resp = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url()
                        + "/chat/completions")).POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-x\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(resp.statusCode()).as(base).isEqualTo(200);
                MeterReport report = run.finish();
                assertThat(report.tokens().input()).as(Files.readString(tmp.resolve("requests.jsonl"))).isEqualTo(1334);
                assertThat(report.tokens().cacheRead()).isEqualTo(200);
                assertThat(report.tokens().output()).isEqualTo(56);
                assertThat(report.tokens().cacheWrite()).as("OpenAI has no cache-write figure").isNull();
            }
        }
    }

    @Test
    void refusesARequestWithoutALiveRunsToken() throws Exception {
        upstream.on("/v1/messages", ex -> Upstream.send(ex, 200, "application/json", "{}"));
        MeterRun run = open(upstream.url(""));
        String good = run.provider().v1Url();
        String port = String.valueOf(meter.port());
        for (String url : List.of("http://127.0.0.1:" + port + "/v1/messages",
                "http://127.0.0.1:" + port + "/r/0123456789abcdef0123456789abcdef/v1/messages")) {
            HttpResponse<String> resp = client.send(HttpRequest.newBuilder(URI.create(url))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(resp.statusCode()).isEqualTo(404);
        }
        run.finish();
        HttpResponse<String> after = client.send(HttpRequest.newBuilder(URI.create(good + "/messages"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode()).as("the token of a finished run").isEqualTo(404);
        assertThat(upstream.received).isEmpty();
    }

    @Test
    void aRunsTokenWorksOnlyOnItsOwnPath() throws Exception {
        upstream.on("/v1/messages", ex -> Upstream.send(ex, 200, "application/json", "{}"));
        try (MeterRun a = open(upstream.url("")); MeterRun b = meter.open("run-2", provider(upstream.url("")),
                MeterRun.Hooks.NONE, Limits.NONE, null, tmp.resolve("requests-2.jsonl"))) {
            HttpResponse<String> resp = client.send(HttpRequest.newBuilder(URI.create(b.provider().v1Url() + "/messages"))
                    .header("x-api-key", a.provider().secret().reveal()).POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(resp.statusCode()).isEqualTo(401);
            assertThat(upstream.received).isEmpty();
        }
    }

    @Test
    void anUnreachableUpstreamIsA502RecordedAsTransient() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        try (MeterRun run = open(URI.create("http://127.0.0.1:" + dead))) {
            HttpResponse<String> resp = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url() + "/messages"))
                    .header("x-api-key", run.provider().secret().reveal())
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(resp.statusCode()).isEqualTo(502);
            assertThat(resp.body()).doesNotContain(KEY);
            MeterReport report = run.finish();
            assertThat(report.lastModel().status()).isEqualTo(502);
            assertThat(report.lastModel().upstreamError()).startsWith("unreachable");
            assertThat(WireTruth.classify(report.lastModel())).isEqualTo(Outcome.TRANSIENT);
            assertThat(report.tokens().isMeasured()).isFalse();
        }
    }

    @Test
    void malformedJsonAndSsePassThroughUnchangedAndAreUnmeasured() throws Exception {
        String badSse = "data: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":5\n\n"
                + "data: not json at all\n\n";
        String badJson = "{\"model\":\"m\",\"usage\":{\"prompt_tokens\":5,";
        upstream.on("/v1/messages", ex -> Upstream.stream(ex, "text/event-stream",
                List.of(badSse.getBytes(StandardCharsets.UTF_8))));
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", badJson));
        try (MeterRun run = open(upstream.url(""))) {
            HttpResponse<String> a = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url() + "/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> b = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url()
                    + "/chat/completions")).POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(a.body()).isEqualTo(badSse);
            assertThat(b.body()).isEqualTo(badJson);
            MeterReport report = run.finish();
            assertThat(report.modelRequests()).isEqualTo(2);
            assertThat(report.measuredRequests()).isZero();
            assertThat(report.tokens().isMeasured()).as("unmeasured, never 0").isFalse();
            assertThat(records()).allSatisfy(r -> assertThat(r.path("upstream_error").asText()).isEqualTo("malformed"));
        }
    }

    @Test
    void aClientDisconnectingMidStreamCancelsTheUpstreamRequest() throws Exception {
        CountDownLatch upstreamSawTheEnd = new CountDownLatch(1);
        AtomicReference<String> how = new AtomicReference<>();
        upstream.on("/v1/messages", ex -> {
            ex.getResponseHeaders().set("content-type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            try {
                while (System.nanoTime() < until) {
                    out.write("event: ping\ndata: {\"type\":\"ping\"}\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(20);
                }
                how.set("kept streaming for 60 s");
            } catch (IOException e) {
                how.set("write failed");
            } catch (InterruptedException e) {
                how.set("interrupted");
            } finally {
                upstreamSawTheEnd.countDown();
            }
        });
        try (MeterRun run = open(upstream.url(""));
                Socket cli = new Socket("127.0.0.1", meter.port())) {
            String path = run.provider().baseUrl().getPath() + "/v1/messages";
            byte[] body = "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8);
            cli.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            cli.getOutputStream().write(body);
            cli.getOutputStream().flush();
            InputStream in = cli.getInputStream();
            byte[] buf = new byte[256];
            assertThat(in.read(buf)).isPositive(); // the stream has started
            cli.setSoLinger(true, 0);
            cli.close(); // the CLI goes away mid-stream
            assertThat(upstreamSawTheEnd.await(30, TimeUnit.SECONDS)).as("the upstream request ended").isTrue();
            assertThat(how.get()).isEqualTo("write failed");
            MeterReport report = run.finish();
            assertThat(report.lastModel().upstreamError()).isEqualTo("client-disconnected");
            assertThat(report.tokens().isMeasured()).isFalse();
        }
    }

    @Test
    void aStreamTheUpstreamBreaksOffReachesTheClientBrokenAndIsTransient() throws Exception {
        upstream.on("/v1/messages", ex -> {
            ex.getResponseHeaders().set("content-type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.write(ANTHROPIC_SSE.substring(0, 200).getBytes(StandardCharsets.UTF_8));
            out.flush();
            throw new IOException("drop the connection"); // the JDK server closes it without the last chunk
        });
        try (MeterRun run = open(upstream.url(""))) {
            HttpResponse<InputStream> resp = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url()
                    + "/messages")).POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            boolean broken = false;
            try (InputStream in = resp.body()) {
                in.readAllBytes();
            } catch (IOException e) {
                broken = true;
            }
            assertThat(broken).as("the client sees the stream break, not end").isTrue();
            MeterReport report = run.finish();
            assertThat(report.lastModel().upstreamError()).startsWith("reset");
            assertThat(WireTruth.classify(report.lastModel())).isEqualTo(Outcome.TRANSIENT);
            assertThat(report.tokens().isMeasured()).isFalse();
        }
    }

    @Test
    void aRateLimitedRequestGivesItsRetryTimeAndNothingBilled() throws Exception {
        upstream.on("/v1/chat/completions", ex -> {
            ex.getResponseHeaders().set("retry-after", "30");
            ex.getResponseHeaders().set("x-ratelimit-reset-requests", "1s");
            Upstream.send(ex, 429, "application/json",
                    "{\"error\":{\"message\":\"rate limit exceeded\",\"type\":\"rate_limit_error\"}}");
        });
        try (MeterRun run = open(upstream.url("/v1"))) {
            java.time.Instant before = java.time.Instant.now();
            client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
            MeterReport report = run.finish();
            RequestRecord r = report.lastModel();
            assertThat(r.errorType()).isEqualTo("rate_limit_error");
            assertThat(r.rateLimit()).containsEntry("retry-after", "30");
            assertThat(r.retryAt()).isBetween(before.plusSeconds(29), before.plusSeconds(60));
            assertThat(WireTruth.classify(r)).isEqualTo(Outcome.RATE_LIMITED);
            assertThat(report.measuredRequests()).as("a refused request billed nothing: " + Files.readString(tmp.resolve("requests.jsonl"))).isEqualTo(1);
        }
    }

    @Test
    void anOutOfQuotaAnswerIsRateLimitedUntilTheResetItNames() throws Exception {
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 429, "application/json",
                "{\"error\":{\"message\":\"You exceeded your current quota; it resets at 2031-01-01T00:00:00Z\","
                        + "\"type\":\"insufficient_quota\"}}"));
        try (MeterRun run = open(upstream.url("/v1"))) {
            client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
            RequestRecord r = run.finish().lastModel();
            assertThat(r.errorType()).isEqualTo("insufficient_quota");
            assertThat(r.retryAt()).isEqualTo(java.time.Instant.parse("2031-01-01T00:00:00Z"));
            assertThat(WireTruth.classify(r)).isEqualTo(Outcome.RATE_LIMITED);
        }
    }

    @Test
    void aGzippedAnswerIsPassedOnCompressedAndStillRead() throws Exception {
        java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(z)) {
            gz.write(("{\"model\":\"gpt-x\",\"usage\":{\"prompt_tokens\":90,\"completion_tokens\":9}}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        byte[] gzipped = z.toByteArray();
        upstream.on("/v1/chat/completions", ex -> {
            ex.getResponseHeaders().set("content-encoding", "gzip");
            ex.getResponseHeaders().set("content-type", "application/json");
            ex.sendResponseHeaders(200, gzipped.length);
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < gzipped.length; i += 3) { // in small pieces: the header too
                    out.write(gzipped, i, Math.min(3, gzipped.length - i));
                    out.flush();
                }
            }
        });
        try (MeterRun run = open(upstream.url(""))) {
            HttpResponse<byte[]> resp = client.send(HttpRequest.newBuilder(URI.create(run.provider().v1Url()
                    + "/chat/completions")).header("accept-encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-x\"}")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(resp.body()).isEqualTo(gzipped);
            assertThat(resp.headers().firstValue("content-encoding")).hasValue("gzip");
            MeterReport report = run.finish();
            assertThat(report.tokens().input()).isEqualTo(90);
            assertThat(report.tokens().output()).isEqualTo(9);
        }
    }
}
