package dev.harness4j.testkit.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.provider.Catalogue;
import dev.harness4j.core.provider.CatalogueRefresh;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProviderUnreachableException;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The default provider resolver against the real scripted model server: catalogues, refresh, health, precedence. */
class ProvidersAgainstScriptedServerTest {
    static final String KEY = "sk-scripted-right-3f9a";
    static final String WRONG = "sk-scripted-wrong-77c1";

    @TempDir
    Path stateDir;

    ScriptedModelServer server;

    @BeforeEach
    void startServer() {
        server = ScriptedModelServer.start();
        server.script("scripted-a", Scenario.builder().say("a").build());
        server.script("scripted-b", Scenario.builder().say("b").build());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private ProviderConfig.Builder local(ApiStyle... styles) {
        return ProviderConfig.builder("local").apiStyles(styles).baseUrl(server.baseUrl())
                .key("LOCAL_KEY", AuthScheme.BEARER);
    }

    private Providers providers(ProviderConfig config, String key) {
        return Providers.builder().add(config).environment(key == null ? Map.of() : Map.of("LOCAL_KEY", key)).build();
    }

    @Test
    void fetchesTheCatalogueInTheDataIdsShape() {
        Catalogue c = providers(local(ApiStyle.OPENAI).build(), KEY).fetchCatalogue("local");

        assertThat(c.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1/models"));
        assertThat(c.shape()).isEqualTo(Catalogue.Shape.DATA_IDS);
        assertThat(c.models()).containsExactly("scripted-a", "scripted-b");
    }

    @Test
    void aBaseUrlEndingInV1IsNotGivenASecondV1() {
        ProviderConfig cfg = local(ApiStyle.OPENAI).baseUrl(server.baseUrl() + "/v1/").build();

        Catalogue c = providers(cfg, KEY).fetchCatalogue("local");

        assertThat(c.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1/models"));
        assertThat(c.models()).containsExactly("scripted-a", "scripted-b");
    }

    @Test
    void fetchesTheCatalogueInTheOllamaModelsNamesShape() {
        server.script("qwen2.5-coder:7b", Scenario.builder().say("q").build());

        Catalogue c = providers(local(ApiStyle.OLLAMA).build(), null).fetchCatalogue("local");

        assertThat(c.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/api/tags"));
        assertThat(c.shape()).isEqualTo(Catalogue.Shape.MODELS_NAMES);
        assertThat(c.models()).containsExactly("qwen2.5-coder:7b", "scripted-a", "scripted-b");
    }

    @Test
    void sendsTheKeyOnlyTheWayItsAuthSchemeSays() {
        server.requireKey(KEY);

        providers(local(ApiStyle.ANTHROPIC).build(), KEY).fetchCatalogue("local");
        providers(local(ApiStyle.ANTHROPIC).key("LOCAL_KEY", AuthScheme.API_KEY).build(), KEY).fetchCatalogue("local");

        List<RecordedRequest> lists = awaitRequests(2);
        assertThat(lists).extracting(RecordedRequest::path).containsExactly("/v1/models", "/v1/models");
        assertThat(lists).extracting(RecordedRequest::status).containsExactly(200, 200);
        assertThat(lists.get(0).authHeaders()).as("auth bearer").containsExactly("authorization");
        assertThat(lists.get(1).authHeaders()).as("auth api_key").containsExactly("x-api-key");
    }

    @Test
    void refreshReportsAddedAndRemovedModelsRewritesTheFileAndFlagsAVanishedDefault() {
        Path file = ProvidersFile.in(stateDir);
        ProviderConfig before = local(ApiStyle.OPENAI).models("old-model", "scripted-a").defaultModel("old-model").build();
        ProviderConfig other = ProviderConfig.builder("other").apiStyles(ApiStyle.OLLAMA)
                .baseUrl("http://127.0.0.1:11434").models("x").build();
        ProvidersFile.write(file, List.of(before, other));
        Providers providers = Providers.builder().stateDir(stateDir).environment(Map.of("LOCAL_KEY", KEY)).build();

        CatalogueRefresh r = providers.refresh("local");

        assertThat(r.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1/models"));
        assertThat(r.added()).containsExactly("scripted-b");
        assertThat(r.removed()).containsExactly("old-model");
        assertThat(r.defaultModelVanished()).isTrue();
        assertThat(r.vanishedDefaultModel()).isEqualTo("old-model");
        assertThat(r.writtenTo()).isEqualTo(file);
        List<ProviderConfig> onDisk = ProvidersFile.read(file);
        assertThat(onDisk).containsExactly(before.withModels(List.of("scripted-a", "scripted-b")), other);
        assertThat(onDisk.get(0).defaultModel()).as("left for the user to fix").isEqualTo("old-model");
        assertThat(r.providers().config("local").orElseThrow().models()).containsExactly("scripted-a", "scripted-b");
        assertThat(providers.config("local").orElseThrow().models()).as("the old instance is unchanged")
                .containsExactly("old-model", "scripted-a");

        CatalogueRefresh again = r.providers().refresh("local");

        assertThat(again.changed()).isFalse();
    }

    @Test
    void aProviderConfiguredInCodeIsRefreshedWithoutWritingAFile() {
        CatalogueRefresh r = providers(local(ApiStyle.OPENAI).build(), KEY).refresh("local");

        assertThat(r.added()).containsExactly("scripted-a", "scripted-b");
        assertThat(r.writtenTo()).isNull();
        assertThat(stateDir.resolve("config")).doesNotExist();
    }

    @Test
    void aRefusedKeyFailsTheFetchNamingTheVariable() {
        server.requireKey(KEY);

        assertThatThrownBy(() -> providers(local(ApiStyle.OPENAI).build(), WRONG).fetchCatalogue("local"))
                .isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining("HTTP 401 (the key in environment variable LOCAL_KEY was refused)")
                .hasMessageNotContaining(WRONG);
    }

    @Test
    void isHealthyWithTheRightKey() {
        server.requireKey(KEY);

        HealthCheck h = providers(local(ApiStyle.ANTHROPIC).build(), KEY).health("local");

        assertThat(h.healthy()).isTrue();
        assertThat(h.status()).isEqualTo(200);
        assertThat(h.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/v1/models"));
    }

    @Test
    void isUnhealthyWith401ForAWrongKey() {
        server.requireKey(KEY);

        HealthCheck h = providers(local(ApiStyle.ANTHROPIC).build(), WRONG).health("local");

        assertThat(h.healthy()).isFalse();
        assertThat(h.status()).isEqualTo(401);
        assertThat(h.detail()).contains("LOCAL_KEY was refused").doesNotContain(WRONG);
    }

    @Test
    void isUnhealthyWith401WhenTheKeyVariableIsUnset() {
        server.requireKey(KEY);

        HealthCheck h = providers(local(ApiStyle.OPENAI).build(), null).health("local");

        assertThat(h.healthy()).isFalse();
        assertThat(h.status()).isEqualTo(401);
        assertThat(h.detail()).contains("no key sent: environment variable LOCAL_KEY is not set");
    }

    @Test
    void aGatewayWithBothKeysUnsetNamesBothVariables() {
        server.requireKey(KEY);
        ProviderConfig gateway = local(ApiStyle.OPENAI).gateway(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY")).build();

        // the catalogue fetch sends the admin key, else the provider's (a gateway's health path needs none)
        assertThatThrownBy(() -> providers(gateway, null).fetchCatalogue("local"))
                .hasMessageContaining("HTTP 401 (no key sent: neither the gateway's admin key variable "
                        + "LITELLM_MASTER_KEY nor the provider's key variable LOCAL_KEY is set; set LITELLM_MASTER_KEY)");
    }

    @Test
    void checksTheConfiguredHealthPath() {
        ProviderConfig gateway = local(ApiStyle.OPENAI, ApiStyle.ANTHROPIC).healthPath("/health/readiness")
                .gateway(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY")).build();

        HealthCheck h = providers(gateway, KEY).health("local");

        assertThat(h.endpoint()).isEqualTo(URI.create(server.baseUrl() + "/health/readiness"));
        assertThat(h.healthy()).as(h.detail()).isTrue();
    }

    @ParameterizedTest(name = "requested={0}, default_model={1} -> the server is asked for {2}")
    @CsvSource(nullValues = "none", value = {
        "scripted-b, scripted-a, scripted-b",
        "scripted-a, none,       scripted-a",
        "none,       scripted-a, scripted-a",
        "none,       scripted-b, scripted-b",
    })
    void theServerIsAskedForTheModelPrecedenceChose(String requested, String defaultModel, String expected)
            throws Exception {
        ProviderConfig scripted = ProviderConfig.scripted(server.baseUrl(), defaultModel);
        server.requireKey(KEY);
        Providers providers = Providers.builder().add(scripted)
                .environment(Map.of(ProviderConfig.SCRIPTED_KEY_ENV, KEY)).build();

        ResolvedProvider p = providers.resolve("scripted", requested).orElseThrow();
        int status = sendMessage(p);

        assertThat(p.model()).isEqualTo(expected);
        assertThat(status).isEqualTo(200);
        assertThat(awaitRequests(1)).last().extracting(RecordedRequest::model).isEqualTo(expected);
    }

    @Test
    void withoutAModelResolutionFailsFastListingTheFetchedCatalogue() {
        Providers refreshed = providers(ProviderConfig.scripted(server.baseUrl()), null)
                .refresh("scripted").providers();
        int before = awaitRequests(1).size();

        assertThatThrownBy(() -> refreshed.resolve("scripted", null))
                .isInstanceOf(ProviderNotResolvableException.class)
                .hasMessageContaining("provider 'scripted' has no model to use")
                .hasMessageContaining("Its catalogue: scripted-a, scripted-b");
        assertThat(server.requests()).as("nothing was sent").hasSize(before);
    }

    /**
     * The requests recorded once at least {@code count} are: the server records a request after
     * answering it, so a client can see the answer a moment before the record exists.
     */
    private List<RecordedRequest> awaitRequests(int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<RecordedRequest> seen = server.requests();
        while (seen.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server recorded " + seen.size() + " requests within 5 s, expected "
                        + count + ": " + seen);
            }
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
            seen = server.requests();
        }
        return seen;
    }

    /** One non-streamed Anthropic Messages call, as a harness would send it with the resolved provider. */
    private static int sendMessage(ResolvedProvider p) throws Exception {
        String body = "{\"model\":\"" + p.model() + "\",\"max_tokens\":16,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        HttpRequest req = HttpRequest.newBuilder(URI.create(p.v1Url() + "/messages"))
                .timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json")
                .header("anthropic-version", "2023-06-01")
                .header("x-api-key", p.secret().reveal())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
