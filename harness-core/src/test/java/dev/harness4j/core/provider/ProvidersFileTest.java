package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProvidersFileTest {
    @TempDir
    Path dir;

    private Path file(String json) throws IOException {
        Path f = dir.resolve("providers.json");
        Files.writeString(f, json);
        return f;
    }

    @Test
    void readsWhatItWrote() {
        ProviderConfig litellm = ProviderConfig.builder("litellm")
                .apiStyles(ApiStyle.ANTHROPIC, ApiStyle.OPENAI)
                .baseUrl("http://127.0.0.1:4000")
                .key("LITELLM_API_KEY", AuthScheme.BEARER)
                .models("m-1", "m-2")
                .defaultModel("m-1")
                .healthPath("/health/readiness")
                .gateway(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY"))
                .build();
        ProviderConfig ollama = ProviderConfig.builder("ollama").apiStyles(ApiStyle.OLLAMA)
                .baseUrl("http://127.0.0.1:11434").build();
        ProviderConfig scripted = ProviderConfig.scripted(java.net.URI.create("http://127.0.0.1:5555"));
        Path f = dir.resolve("config/providers.json");

        ProvidersFile.write(f, List.of(litellm, ollama, scripted));

        assertThat(ProvidersFile.read(f)).containsExactly(litellm, ollama, scripted);
    }

    @Test
    void readsTheGeminiStyle() throws IOException {
        Path f = file("{\"providers\": [{\"name\": \"google\", \"api_styles\": [\"gemini\"],"
                + " \"base_url\": \"https://generativelanguage.googleapis.com\", \"key_env\": \"GEMINI_API_KEY\"}]}");

        ProviderConfig google = ProvidersFile.read(f).get(0);

        assertThat(google.apiStyles()).containsExactly(ApiStyle.GEMINI);
        Path again = dir.resolve("again.json");
        ProvidersFile.write(again, List.of(google));
        assertThat(Files.readString(again)).contains("\"gemini\"");
        assertThat(ProvidersFile.read(again)).containsExactly(google);
    }

    @Test
    void writesAtomicallyLeavingNoTempFile() throws IOException {
        Path f = dir.resolve("providers.json");
        ProvidersFile.write(f, List.of());
        ProvidersFile.write(f, List.of());
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(f);
        }
    }

    @Test
    void malformedJsonNamesTheFileLineAndColumn() throws IOException {
        Path f = file("{\n  \"providers\": [\n    { \"name\": \"x\",, }\n  ]\n}\n");

        assertThatThrownBy(() -> ProvidersFile.read(f))
                .isInstanceOf(ProviderConfigException.class)
                .hasMessageContaining(f.toString())
                .hasMessageContaining("is not valid JSON at line 3, column 19");
    }

    @Test
    void aBareTokenIsLocatedButNotQuoted() throws IOException {
        Path f = file("{\"providers\": [{\"name\": \"a\", \"key_env\": sklive0abcdef123}]}");

        assertThatThrownBy(() -> ProvidersFile.read(f))
                .isInstanceOf(ProviderConfigException.class)
                .hasMessageContaining("is not valid JSON at line 1, column")
                .hasMessageNotContaining("sklive0abcdef123")
                .hasNoCause();
    }

    @Test
    void unknownFieldsAreRejectedAllWithTheirNames() throws IOException {
        Path f = file("""
                {"providers": [
                  {"name": "a", "api_styles": ["openai"], "base_url": "http://127.0.0.1:1",
                   "api_key": "sk-pasted-by-mistake", "baseurl": "x"}
                ]}
                """);

        assertThatThrownBy(() -> ProvidersFile.read(f))
                .isInstanceOf(ProviderConfigException.class)
                .hasMessageContaining("unknown fields 'api_key' in /providers/0 (line 3")
                .hasMessageContaining("'baseurl' in /providers/0")
                .hasMessageContaining("known fields: /providers/*: name, api_styles, base_url")
                .hasMessageContaining("key_env")
                .hasMessageNotContaining("sk-pasted-by-mistake");
    }

    @Test
    void aBaseUrlThatIsNotAUrlIsReportedWithProviderAndPosition() throws IOException {
        Path f = file("""
                {"providers": [
                  {"name": "a", "api_styles": ["openai"], "base_url": "127.0.0.1:4000"}
                ]}
                """);

        assertThatThrownBy(() -> ProvidersFile.read(f))
                .isInstanceOf(ProviderConfigException.class)
                .hasMessageContaining(f.toString())
                .hasMessageContaining("line 2")
                .hasMessageContaining("base_url '127.0.0.1:4000' of provider 'a' is not");
        Path ftp = file("{\"providers\": [{\"name\": \"b\", \"api_styles\": [\"openai\"], \"base_url\": \"ftp://h/\"}]}");
        assertThatThrownBy(() -> ProvidersFile.read(ftp))
                .hasMessageContaining("base_url 'ftp://h/' of provider 'b' is not an http(s) URL");
    }

    @Test
    void badValuesSayWhatIsAllowed() throws IOException {
        Path style = file("{\"providers\": [{\"name\": \"a\", \"api_styles\": [\"grpc\"], \"base_url\": \"http://h\"}]}");
        assertThatThrownBy(() -> ProvidersFile.read(style))
                .hasMessageContaining("api_styles value 'grpc' of provider 'a' is unknown; use one of anthropic, openai, ollama, gemini");

        Path type = file("{\"providers\": [{\"name\": \"a\", \"api_styles\": \"openai\", \"base_url\": \"http://h\"}]}");
        assertThatThrownBy(() -> ProvidersFile.read(type))
                .hasMessageContaining("field /providers/0/api_styles")
                .hasMessageContaining("wrong type, expected an array");

        Path missing = file("{\"providers\": [{\"name\": \"a\", \"api_styles\": [\"openai\"]}]}");
        assertThatThrownBy(() -> ProvidersFile.read(missing)).hasMessageContaining("provider 'a' needs a \"base_url\"");

        Path gateway = file("{\"providers\": [{\"name\": \"a\", \"api_styles\": [\"openai\"], \"base_url\": \"http://h\","
                + " \"gateway\": {\"type\": \"kong\", \"admin_key_env\": \"K\"}}]}");
        assertThatThrownBy(() -> ProvidersFile.read(gateway)).hasMessageContaining("gateway type 'kong'");
    }

    @Test
    void aKeyPastedAsAValueIsLeftOutOfAMessageThatStillReadsWell() throws IOException {
        String key = "sk-proj-" + "abcdefghijklmnopqrstuvwxyz0123456789A".substring(0, 33); // 41 characters
        Path auth = file("{\"providers\": [{\"name\": \"a\", \"api_styles\": [\"openai\"], \"base_url\": \"http://h\","
                + " \"key_env\": \"A_KEY\", \"auth\": \"" + key + "\"}]}");
        assertThatThrownBy(() -> ProvidersFile.read(auth))
                .hasMessageContaining("auth value (41 characters, not shown: it could be a key) of provider 'a' is "
                        + "unknown; use one of api_key, bearer")
                .hasMessageNotContaining(key)
                .hasMessageNotContaining("value a value");
    }

    @Test
    void twoProvidersWithOneNameAreRejected() throws IOException {
        Path f = file("{\"providers\": ["
                + "{\"name\": \"a\", \"api_styles\": [\"openai\"], \"base_url\": \"http://h\"},"
                + "{\"name\": \"a\", \"api_styles\": [\"openai\"], \"base_url\": \"http://i\"}]}");
        assertThatThrownBy(() -> ProvidersFile.read(f)).hasMessageContaining("defines provider 'a' twice");
    }

    @Test
    void anEmptyFileSaysSo() throws IOException {
        Path f = file("");
        assertThatThrownBy(() -> ProvidersFile.read(f)).hasMessageContaining("is empty");
    }

    @Test
    void theDocumentedExamplesParse() throws IOException {
        Path f = dir.resolve("example.json");
        try (InputStream in = ProvidersFile.class.getResourceAsStream("providers-example.json")) {
            assertThat(in).as("example resource").isNotNull();
            Files.writeString(f, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }

        List<ProviderConfig> examples = ProvidersFile.read(f);

        assertThat(examples).extracting(ProviderConfig::name).containsExactly("anthropic", "openai", "ollama", "litellm");
        assertThat(examples.get(3).gateway()).isEqualTo(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY"));
        assertThat(examples.get(1).auth()).isEqualTo(AuthScheme.BEARER);
        assertThat(examples.get(0).prices().get("claude-sonnet-4-5"))
                .isEqualTo(ModelPrice.of("3", "15").withCache("0.30", "3.75"));
    }

    @Test
    void aCliLoginProviderHasNoEndpointResolvesWithoutOneAndRoundTrips() throws IOException {
        Path f = file("{\"providers\":[{\"name\":\"claude-login\",\"cli_login\":true,\"models\":[\"sonnet\"],"
                + "\"default_model\":\"sonnet\"}]}");
        ProviderConfig c = ProvidersFile.read(f).get(0);
        assertThat(c.cliLogin()).isTrue();
        assertThat(c.baseUrl()).isNull();
        assertThat(c.apiStyles()).isEmpty();
        Providers providers = Providers.builder().configFile(f).build();
        dev.harness4j.api.ResolvedProvider r = providers.resolve("claude-login", null).orElseThrow();
        assertThat(r.usesCliLogin()).isTrue();
        assertThat(r.model()).isEqualTo("sonnet");
        assertThat(r.secret()).isNull();
        assertThatThrownBy(r::v1Url).isInstanceOf(IllegalStateException.class).hasMessageContaining("own login");
        assertThatThrownBy(() -> providers.health("claude-login"))
                .isInstanceOf(dev.harness4j.api.ProviderNotResolvableException.class).hasMessageContaining("no endpoint");

        Path out = dir.resolve("config/providers.json");
        ProvidersFile.write(out, List.of(c));
        assertThat(Files.readString(out)).contains("\"cli_login\" : true").doesNotContain("base_url");
        assertThat(ProvidersFile.read(out)).containsExactly(c);
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void aCliLoginProviderWithAnEndpointFieldIsRejectedSayingWhichToDrop() throws IOException {
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"providers\":[{\"name\":\"x\",\"cli_login\":true,"
                + "\"base_url\":\"http://127.0.0.1:9\",\"api_styles\":[\"openai\"]}]}")))
                .hasMessageContaining("provider 'x'").hasMessageContaining("cli_login").hasMessageContaining("base_url");
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"providers\":[{\"name\":\"y\",\"cli_login\":true,"
                + "\"health_path\":\"/h\"}]}"))).hasMessageContaining("health_path");
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"providers\":[{\"name\":\"z\",\"models\":[\"m\"]}]}")))
                .hasMessageContaining("api_styles");
    }

    @Test
    void pricesAreReadWrittenAndAskedForByModel() throws IOException {
        ProviderConfig priced = ProviderConfig.builder("p").apiStyles(dev.harness4j.api.ApiStyle.OPENAI)
                .baseUrl("http://127.0.0.1:9/v1").models("a", "b")
                .price("a", ModelPrice.of("0.5", "1.5")).price("b", ModelPrice.of("2", "8").withCache("0.5", "0"))
                .build();
        Path f = dir.resolve("config/providers.json");
        ProvidersFile.write(f, List.of(priced));

        List<ProviderConfig> read = ProvidersFile.read(f);

        assertThat(read.get(0).prices()).hasSize(2);
        assertThat(read.get(0).prices().get("a").input()).isEqualByComparingTo("0.5");
        assertThat(read.get(0).prices().get("b").cacheWrite()).isEqualByComparingTo("0");
        Providers providers = Providers.builder().configFile(f).build();
        assertThat(providers.price("p", "b")).map(ModelPrice::output).hasValueSatisfying(v ->
                assertThat(v).isEqualByComparingTo("8"));
        assertThat(providers.price("p", "c")).isEmpty();
        assertThat(providers.price("q", "a")).isEmpty();
    }

    @Test
    void aPriceWithAnUnknownFieldOrWithoutInputIsRejected() throws IOException {
        Path typo = file("{\"providers\":[{\"name\":\"p\",\"api_styles\":[\"openai\"],\"base_url\":\"http://h\","
                + "\"prices\":{\"m\":{\"input\":1,\"output\":2,\"cache_reads\":1}}}]}");
        assertThatThrownBy(() -> ProvidersFile.read(typo)).hasMessageContaining("'cache_reads' in /providers/0/prices/m");
        Path missing = file("{\"providers\":[{\"name\":\"p\",\"api_styles\":[\"openai\"],\"base_url\":\"http://h\","
                + "\"prices\":{\"m\":{\"output\":2}}}]}");
        assertThatThrownBy(() -> ProvidersFile.read(missing)).hasMessageContaining("needs \"input\" and \"output\"");
    }
}
