package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Catalogue and health requests against real loopback servers: deadlines, pagination, headers. */
class ProviderHttpTest {
    private static final String KEY = "sk-httptest-0123456789";

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Headers> headersByPath = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI base(String prefix) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + prefix);
    }

    // item 1: a stalled body

    @Test
    void aResponseBodyThatStallsAfterTheHeadersEndsWithinTheTimeout() throws Exception {
        try (ServerSocket stalling = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> held = new CopyOnWriteArrayList<>();
            Thread acceptor = new Thread(() -> {
                while (!stalling.isClosed()) {
                    try {
                        Socket s = stalling.accept();
                        held.add(s);
                        readRequestHead(s.getInputStream());
                        OutputStream out = s.getOutputStream();
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
                                + "{\"data\": [").getBytes(StandardCharsets.US_ASCII));
                        out.flush(); // and then nothing more, connection kept open
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "stalling-server");
            acceptor.setDaemon(true);
            acceptor.start();
            URI url = URI.create("http://127.0.0.1:" + stalling.getLocalPort());
            Providers providers = Providers.builder()
                    .add(ProviderConfig.builder("stall").apiStyles(ApiStyle.OPENAI).baseUrl(url).build())
                    .probeTimeout(Duration.ofSeconds(1)).healthTimeout(Duration.ofSeconds(1)).build();
            try {
                long start = System.nanoTime();
                Throwable fetch = assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> catchThrowable(() -> providers.fetchCatalogue("stall")),
                        "fetchCatalogue still blocked on a stalled body");
                Duration fetchTook = Duration.ofNanos(System.nanoTime() - start);
                start = System.nanoTime();
                HealthCheck health = assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> providers.health("stall"), "health still blocked on a stalled body");
                Duration healthTook = Duration.ofNanos(System.nanoTime() - start);

                assertThat(fetch).isInstanceOf(ProviderUnreachableException.class)
                        .hasMessageContaining("GET " + url + "/v1/models: HTTP 200 but the response body did not"
                                + " arrive in full within 1000 ms (timed out waiting for the body)");
                assertThat(health.healthy()).isFalse();
                assertThat(health.detail()).contains("did not arrive in full within 1000 ms");
                // two URLs each: 2 s of deadlines, with ample room for a loaded machine
                assertThat(fetchTook).isLessThan(Duration.ofSeconds(10));
                assertThat(healthTook).isLessThan(Duration.ofSeconds(10));
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    private static void readRequestHead(InputStream in) throws IOException {
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
    }

    // item 2: pagination

    @Test
    void anthropicsModelListIsFollowedPageByPageToTheEnd() {
        List<String> all = IntStream.rangeClosed(1, 25).mapToObj(i -> String.format("claude-%02d", i)).toList();
        server.createContext("/v1/models", ex -> {
            requests.add(ex.getRequestURI().toString());
            Map<String, String> q = query(ex.getRequestURI());
            int from = q.containsKey("after_id") ? all.indexOf(q.get("after_id")) + 1 : 0;
            int size = Math.min(20, q.containsKey("limit") ? Integer.parseInt(q.get("limit")) : 20);
            List<String> page = all.subList(from, Math.min(all.size(), from + size));
            respond(ex, 200, page(page, from + size < all.size()));
        });
        Providers providers = Providers.builder().add(ProviderConfig.builder("anthropic").apiStyles(ApiStyle.ANTHROPIC)
                .baseUrl(base("")).build()).build();

        Catalogue cat = providers.fetchCatalogue("anthropic");

        assertThat(cat.models()).containsExactlyElementsOf(all);
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1)).contains("after_id=claude-20").contains("limit=");
    }

    @Test
    void googlesModelListIsFollowedByItsNextPageTokenWithTheKeyInTheHeaderOnly() {
        server.createContext("/v1beta/models", ex -> {
            requests.add(ex.getRequestURI().toString());
            headersByPath.put(ex.getRequestURI().toString(), ex.getRequestHeaders());
            boolean second = "tok/2=".equals(query(ex.getRequestURI()).get("pageToken"));
            respond(ex, 200, second ? "{\"models\":[{\"name\":\"models/gemini-c\"}]}"
                    : "{\"models\":[{\"name\":\"models/gemini-b\"},{\"name\":\"models/gemini-a\"}],"
                            + "\"nextPageToken\":\"tok/2=\"}");
        });
        Providers providers = Providers.builder().add(ProviderConfig.builder("google").apiStyles(ApiStyle.GEMINI)
                .baseUrl(base("")).key("GEMINI_API_KEY", AuthScheme.BEARER).build())
                .environment(Map.of("GEMINI_API_KEY", KEY)).build();

        Catalogue cat = providers.fetchCatalogue("google");

        assertThat(cat.shape()).isEqualTo(Catalogue.Shape.GEMINI_MODELS);
        assertThat(cat.models()).containsExactly("gemini-a", "gemini-b", "gemini-c");
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1)).contains("pageToken=tok%2F2%3D").contains("pageSize=").doesNotContain(KEY);
        for (Headers h : headersByPath.values()) {
            assertThat(h.getFirst("x-goog-api-key")).isEqualTo(KEY);
            assertThat(h.containsKey("authorization")).isFalse();
        }
    }

    @Test
    void aModelListThatNeverEndsFailsAfterTheMaximumOfPagesInsteadOfBeingCut() {
        server.createContext("/v1/models", ex -> {
            requests.add(ex.getRequestURI().toString());
            String after = query(ex.getRequestURI()).getOrDefault("after_id", "m-0");
            int n = Integer.parseInt(after.substring(2));
            respond(ex, 200, page(List.of("m-" + (n + 1), "m-" + (n + 2)), true));
        });
        server.createContext("/api/tags", ex -> respond(ex, 404, "{}"));
        Providers providers = Providers.builder().add(ProviderConfig.builder("endless").apiStyles(ApiStyle.ANTHROPIC)
                .baseUrl(base("")).build()).build();

        Throwable t = catchThrowable(() -> providers.fetchCatalogue("endless"));

        assertThat(t).isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining("the model list goes on after 50 pages (100 models so far, has_more still true)");
        assertThat(requests).hasSize(50);
    }

    private static String page(List<String> ids, boolean hasMore) {
        String data = ids.stream().map(id -> "{\"type\": \"model\", \"id\": \"" + id + "\"}")
                .collect(Collectors.joining(", "));
        return "{\"data\": [" + data + "], \"has_more\": " + hasMore + ", \"first_id\": "
                + (ids.isEmpty() ? "null" : "\"" + ids.get(0) + "\"") + ", \"last_id\": "
                + (ids.isEmpty() ? "null" : "\"" + ids.get(ids.size() - 1) + "\"") + "}";
    }

    // item 6: only the headers the auth scheme calls for

    @Test
    void theCatalogueFetchSendsOnlyTheHeadersOfTheConfiguredAuthScheme() {
        for (String prefix : List.of("/anthropic-apikey", "/anthropic-bearer", "/openai-bearer", "/openai-apikey")) {
            server.createContext(prefix + "/v1/models", ex -> {
                headersByPath.put(prefix, ex.getRequestHeaders());
                respond(ex, 200, page(List.of("m"), false));
            });
        }
        Providers providers = Providers.builder()
                .add(provider("anthropic-apikey", ApiStyle.ANTHROPIC, AuthScheme.API_KEY),
                        provider("anthropic-bearer", ApiStyle.ANTHROPIC, AuthScheme.BEARER),
                        provider("openai-bearer", ApiStyle.OPENAI, AuthScheme.BEARER),
                        provider("openai-apikey", ApiStyle.OPENAI, AuthScheme.API_KEY))
                .environment(Map.of("THE_KEY", KEY)).build();

        for (String name : providers.providerNames()) {
            providers.fetchCatalogue(name);
        }

        Headers apiKey = headersByPath.get("/anthropic-apikey");
        assertThat(apiKey.getFirst("x-api-key")).isEqualTo(KEY);
        assertThat(apiKey.getFirst("anthropic-version")).isNotBlank();
        assertThat(apiKey.containsKey("Authorization")).as("Authorization sent with auth api_key").isFalse();

        Headers anthropicBearer = headersByPath.get("/anthropic-bearer");
        assertThat(anthropicBearer.getFirst("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(anthropicBearer.getFirst("anthropic-version")).isNotBlank();
        assertThat(anthropicBearer.containsKey("x-api-key")).as("x-api-key sent with auth bearer").isFalse();

        for (String openai : List.of("/openai-bearer", "/openai-apikey")) {
            Headers h = headersByPath.get(openai);
            assertThat(h.getFirst("Authorization")).as(openai).isEqualTo("Bearer " + KEY);
            assertThat(h.containsKey("x-api-key")).as(openai + ": x-api-key sent to an OpenAI-style endpoint").isFalse();
            assertThat(h.containsKey("anthropic-version")).as(openai + ": anthropic-version sent").isFalse();
        }
    }

    private ProviderConfig provider(String name, ApiStyle style, AuthScheme auth) {
        return ProviderConfig.builder(name).apiStyles(style).baseUrl(base("/" + name)).key("THE_KEY", auth).build();
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new java.util.HashMap<>();
        if (uri.getQuery() != null) {
            for (String pair : uri.getQuery().split("&")) {
                String[] kv = pair.split("=", 2);
                out.put(kv[0], kv.length > 1 ? kv[1] : "");
            }
        }
        return out;
    }

    private static void respond(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
