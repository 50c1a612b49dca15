package dev.harness4j.testkit.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.core.provider.Catalogue;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProviderUnreachableException;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider that serves Google's Gemini API is listed and health-checked the Gemini way against
 * the real scripted model server: {@code GET /v1beta/models}, the key in {@code x-goog-api-key}
 * only (never in the URL, never in a message), {@code models/} dropped from the ids.
 */
class GeminiProvidersTest {
    static final String KEY = "AIza-scripted-right-5d2e";
    static final String WRONG = "AIza-scripted-wrong-90b4";

    ScriptedModelServer server;

    @BeforeEach
    void startServer() {
        server = ScriptedModelServer.start();
        server.script("gemini-scripted-a", Scenario.builder().say("a").build());
        server.script("gemini-scripted-b", Scenario.builder().say("b").build());
        server.requireKey(KEY);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private static ProviderConfig google(URI baseUrl) {
        // BEARER on purpose: Google takes no bearer token, the Gemini list sends x-goog-api-key whatever the scheme
        return ProviderConfig.builder("google").apiStyles(ApiStyle.GEMINI).baseUrl(baseUrl)
                .key("GEMINI_API_KEY", AuthScheme.BEARER).build();
    }

    private static Providers providers(ProviderConfig config, String key) {
        return Providers.builder().add(config).environment(key == null ? Map.of() : Map.of("GEMINI_API_KEY", key))
                .probeTimeout(Duration.ofSeconds(10)).healthTimeout(Duration.ofSeconds(10)).build();
    }

    @Test
    void theCatalogueIsGooglesModelListAskedWithTheKeyInItsHeaderOnly() {
        Catalogue c = providers(google(server.baseUrl()), KEY).fetchCatalogue("google");

        assertThat(c.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1beta/models"));
        assertThat(c.shape()).isEqualTo(Catalogue.Shape.GEMINI_MODELS);
        assertThat(c.models()).containsExactly("gemini-scripted-a", "gemini-scripted-b");
        List<RecordedRequest> seen = awaitRequests(1);
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).path()).isEqualTo("/v1beta/models");
        assertThat(seen.get(0).query()).as("no key in the URL").isNull();
        assertThat(seen.get(0).authHeaders()).containsExactly("x-goog-api-key");
        assertThat(seen.get(0).status()).isEqualTo(200);
    }

    @Test
    void aBaseUrlEndingInV1betaIsNotGivenASecondOne() {
        Catalogue c = providers(google(URI.create(server.baseUrl() + "/v1beta/")), KEY).fetchCatalogue("google");

        assertThat(c.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1beta/models"));
        assertThat(c.models()).containsExactly("gemini-scripted-a", "gemini-scripted-b");
    }

    @Test
    void theHealthCheckIsHealthyOnTheModelList() {
        HealthCheck h = providers(google(server.baseUrl()), KEY).health("google");

        assertThat(h.healthy()).as(h.detail()).isTrue();
        assertThat(h.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1beta/models"));
        assertThat(h.statusCode()).hasValue(200);
    }

    @Test
    void aProviderServingGeminiAmongOtherStylesIsAskedTheGeminiWayFirst() {
        ProviderConfig scripted = ProviderConfig.scripted(server.baseUrl());
        assertThat(scripted.serves(ApiStyle.GEMINI)).isTrue();
        Providers p = Providers.builder().add(scripted).environment(Map.of(ProviderConfig.SCRIPTED_KEY_ENV, KEY)).build();

        HealthCheck h = p.health(scripted.name());

        assertThat(h.healthy()).as(h.detail()).isTrue();
        assertThat(h.endpoint().getPath()).isEqualTo("/v1beta/models");
    }

    @Test
    void aWrongKeyIsGooglesRefusalNamingTheVariableAndNeverTheKey() {
        Providers p = providers(google(server.baseUrl()), WRONG);

        HealthCheck h = p.health("google");
        Throwable thrown = catchThrowable(() -> p.fetchCatalogue("google"));

        assertThat(h.healthy()).isFalse();
        assertThat(h.statusCode()).hasValue(400);
        assertThat(h.detail()).contains("HTTP 400 (the key in environment variable GEMINI_API_KEY was refused)")
                .contains("API key not valid").doesNotContain(WRONG);
        assertThat(thrown).isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining(server.baseUrl() + "/v1beta/models")
                .hasMessageContaining("GEMINI_API_KEY was refused");
        assertThat(thrown.getMessage()).doesNotContain(WRONG);
    }

    @Test
    void noKeyIs403SayingWhichVariableIsUnset() {
        Providers p = providers(google(server.baseUrl()), null);

        HealthCheck h = p.health("google");
        Throwable thrown = catchThrowable(() -> p.fetchCatalogue("google"));

        assertThat(h.healthy()).isFalse();
        assertThat(h.statusCode()).hasValue(403);
        assertThat(h.detail()).contains("HTTP 403 (no key sent: environment variable GEMINI_API_KEY is not set)")
                .contains("Method doesn't allow unregistered callers");
        assertThat(thrown).isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining("HTTP 403 (no key sent: environment variable GEMINI_API_KEY is not set)");
    }

    @Test
    void aClosedPortSaysTheConnectionWasRefusedAtTheGeminiList() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI closed = URI.create("http://127.0.0.1:" + port);
        Providers p = providers(google(closed), KEY);

        HealthCheck h = p.health("google");
        Throwable thrown = catchThrowable(() -> p.fetchCatalogue("google"));

        assertThat(h.healthy()).isFalse();
        assertThat(h.statusCode()).isEmpty();
        assertThat(h.endpoint()).isEqualTo(URI.create(closed + "/v1beta/models"));
        assertThat(h.detail()).contains("connection refused").doesNotContain(KEY);
        assertThat(thrown).isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining("GET " + closed + "/v1beta/models: connection refused");
        assertThat(thrown.getMessage()).doesNotContain(KEY).doesNotContain("/v1/models");
    }

    private List<RecordedRequest> awaitRequests(int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<RecordedRequest> seen = server.requests();
        while (seen.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server recorded " + seen.size() + " requests within 5 s: " + seen);
            }
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
            seen = server.requests();
        }
        return seen;
    }
}
