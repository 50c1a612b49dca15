package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProvidersTest {
    @TempDir
    Path stateDir;

    private static ProviderConfig.Builder anthropic() {
        return ProviderConfig.builder("anthropic").apiStyles(ApiStyle.ANTHROPIC).baseUrl("https://api.anthropic.com/v1")
                .key("ANTHROPIC_API_KEY", AuthScheme.API_KEY).models("claude-a", "claude-b");
    }

    @ParameterizedTest(name = "requested={0}, default_model={1} -> {2}")
    @CsvSource(nullValues = "none", value = {
        "claude-b,   claude-a, claude-b",
        "claude-x,   claude-a, claude-x",
        "claude-b,   none,     claude-b",
        "none,       claude-a, claude-a",
        "'',         claude-a, claude-a",
    })
    void theRequestedModelWinsThenTheDefaultModel(String requested, String defaultModel, String expected) {
        Providers providers = Providers.builder().add(anthropic().defaultModel(defaultModel).build())
                .environment(Map.of("ANTHROPIC_API_KEY", "sk-test-1")).build();

        ResolvedProvider p = providers.resolve("anthropic", requested).orElseThrow();

        assertThat(p.model()).isEqualTo(expected);
        assertThat(p.secret()).isEqualTo(Secret.of("sk-test-1"));
        assertThat(p.baseUrl()).isEqualTo(URI.create("https://api.anthropic.com"));
        assertThat(p.auth()).isEqualTo(AuthScheme.API_KEY);
    }

    @Test
    void noRequestedModelAndNoDefaultFailsFastListingTheCatalogue() {
        Providers providers = Providers.builder().add(anthropic().build())
                .environment(Map.of("ANTHROPIC_API_KEY", "sk-test-1")).build();

        assertThatThrownBy(() -> providers.resolve("anthropic", null))
                .isInstanceOf(ProviderNotResolvableException.class)
                .hasMessageContaining("provider 'anthropic' has no model to use")
                .hasMessageContaining("Its catalogue: claude-a, claude-b")
                .hasMessageContaining("set default_model in its ProviderConfig")
                .satisfies(e -> assertThat(((ProviderNotResolvableException) e).provider()).isEqualTo("anthropic"));
    }

    @Test
    void anEmptyCatalogueSaysHowToFillIt() throws IOException {
        ProvidersFile.write(ProvidersFile.in(stateDir), List.of(
                ProviderConfig.builder("ollama").apiStyles(ApiStyle.OLLAMA).baseUrl("http://127.0.0.1:11434").build()));
        Providers providers = Providers.fromStateDir(stateDir);

        assertThatThrownBy(() -> providers.resolve("ollama", null))
                .hasMessageContaining("Its catalogue is empty")
                .hasMessageContaining("Providers.refresh(\"ollama\")")
                .hasMessageContaining("set default_model in " + ProvidersFile.in(stateDir));
    }

    @Test
    void aMissingKeyVariableNamesTheVariableAndTheProvider() {
        Providers providers = Providers.builder().add(anthropic().defaultModel("claude-a").build())
                .environment(Map.of()).build();

        assertThatThrownBy(() -> providers.resolve("anthropic", null))
                .isInstanceOf(ProviderNotResolvableException.class)
                .hasMessageContaining("provider 'anthropic' needs its key in environment variable ANTHROPIC_API_KEY,"
                        + " which is not set");
    }

    @Test
    void anOptionalKeyResolvesWithoutOne() {
        Providers providers = Providers.builder()
                .add(ProviderConfig.scripted(URI.create("http://127.0.0.1:5555/"), "scripted-a"))
                .environment(Map.of()).build();

        ResolvedProvider p = providers.resolve("scripted", null).orElseThrow();

        assertThat(p.secret()).isNull();
        assertThat(p.v1Url()).isEqualTo("http://127.0.0.1:5555/v1");
    }

    @Test
    void theEnvironmentIsAskedAtEveryResolution() {
        Map<String, String> env = new java.util.concurrent.ConcurrentHashMap<>();
        Providers providers = Providers.builder().add(anthropic().defaultModel("claude-a").build())
                .environment(() -> env).build();
        assertThatThrownBy(() -> providers.resolve("anthropic", null)).hasMessageContaining("ANTHROPIC_API_KEY");

        env.put("ANTHROPIC_API_KEY", "sk-later");

        assertThat(providers.resolve("anthropic", null).orElseThrow().secret().reveal()).isEqualTo("sk-later");
    }

    @Test
    void anUnknownProviderIsLeftToTheNextResolver() {
        Providers providers = Providers.builder().add(anthropic().build()).build();

        assertThat(providers.resolve("nope", "m")).isEmpty();
        assertThat(providers.providerNames()).containsExactly("anthropic");
        assertThatThrownBy(() -> providers.health("nope"))
                .isInstanceOf(ProviderNotResolvableException.class)
                .hasMessageContaining("unknown provider 'nope'; known providers: [anthropic]");
    }

    @Test
    void aProviderInCodeAndInTheFileIsAConflict() {
        ProvidersFile.write(ProvidersFile.in(stateDir), List.of(anthropic().build()));

        assertThatThrownBy(() -> Providers.builder().stateDir(stateDir).add(anthropic().build()).build())
                .isInstanceOf(ProviderConfigException.class)
                .hasMessageContaining("provider 'anthropic' is defined both in code and in");
    }

    @Test
    void aMissingFileMeansNoProvidersFromIt() {
        assertThat(Providers.fromStateDir(stateDir).configs()).isEmpty();
    }

    @Test
    void anUnreachableEndpointFailsTheRefreshClearlyAndWritesNothing() throws IOException {
        URI closed = URI.create("http://127.0.0.1:" + freePort());
        ProvidersFile.write(ProvidersFile.in(stateDir), List.of(
                ProviderConfig.builder("local").apiStyles(ApiStyle.OPENAI).baseUrl(closed).models("m").build()));
        String before = Files.readString(ProvidersFile.in(stateDir));
        Providers providers = Providers.builder().stateDir(stateDir).probeTimeout(Duration.ofSeconds(2)).build();

        assertThatThrownBy(() -> providers.refresh("local"))
                .isInstanceOf(ProviderUnreachableException.class)
                .hasMessageContaining("could not fetch the model catalogue of provider 'local'")
                .hasMessageContaining("GET " + closed + "/v1/models: connection refused")
                .hasMessageContaining("GET " + closed + "/api/tags: connection refused")
                .hasMessageContaining("nothing was written");
        assertThat(Files.readString(ProvidersFile.in(stateDir))).isEqualTo(before);
        assertThat(providers.config("local").orElseThrow().models()).containsExactly("m");
    }

    @Test
    void anEndpointThatNeverAnswersTimesOutPerProbe() throws IOException {
        try (ServerSocket silent = new ServerSocket(0)) { // the kernel accepts the connection; nobody answers
            URI url = URI.create("http://127.0.0.1:" + silent.getLocalPort());
            Providers providers = Providers.builder()
                    .add(ProviderConfig.builder("silent").apiStyles(ApiStyle.OPENAI).baseUrl(url).build())
                    .probeTimeout(Duration.ofMillis(300)).healthTimeout(Duration.ofMillis(300)).build();
            long start = System.nanoTime();

            assertThatThrownBy(() -> providers.fetchCatalogue("silent"))
                    .isInstanceOf(ProviderUnreachableException.class)
                    .hasMessageContaining("GET " + url + "/v1/models: no answer within 300 ms (timed out)")
                    .hasMessageContaining("GET " + url + "/api/tags: no answer within 300 ms (timed out)");
            HealthCheck h = providers.health("silent");

            assertThat(h.healthy()).isFalse();
            assertThat(h.detail()).contains("timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void anUnreachableEndpointIsUnhealthyWithoutAStatus() throws IOException {
        URI closed = URI.create("http://127.0.0.1:" + freePort());
        Providers providers = Providers.builder()
                .add(ProviderConfig.builder("local").apiStyles(ApiStyle.OPENAI).baseUrl(closed).healthPath("/health").build())
                .build();

        HealthCheck h = providers.health("local");

        assertThat(h.healthy()).isFalse();
        assertThat(h.status()).isNull();
        assertThat(h.endpoint()).isEqualTo(URI.create(closed + "/health"));
        assertThat(h.detail()).contains("connection refused");
    }

    @Test
    void theGatewayAdminKeyComesFromItsVariable() {
        ProviderConfig litellm = ProviderConfig.builder("litellm").apiStyles(ApiStyle.OPENAI)
                .baseUrl("http://127.0.0.1:4000").gateway(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY")).build();

        assertThat(Providers.builder().add(litellm).environment(Map.of("LITELLM_MASTER_KEY", "sk-master")).build()
                .adminKey("litellm").reveal()).isEqualTo("sk-master");
        assertThatThrownBy(() -> Providers.builder().add(litellm).environment(Map.of()).build().adminKey("litellm"))
                .hasMessageContaining("needs its admin key in environment variable LITELLM_MASTER_KEY");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
