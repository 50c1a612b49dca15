package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.net.URI;
import org.junit.jupiter.api.Test;

class ProviderConfigTest {

    @Test
    void rejectsABaseUrlThatIsNotAnHttpUrl() {
        assertThatThrownBy(() -> ProviderConfig.builder("p").apiStyles(ApiStyle.OPENAI).baseUrl("localhost:4000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base_url 'localhost:4000' of provider 'p' is not an http(s) URL")
                .hasMessageContaining("http://127.0.0.1:11434");
        assertThatThrownBy(() -> ProviderConfig.builder("p").baseUrl("ftp://host/x"))
                .hasMessageContaining("not an http(s) URL");
        assertThatThrownBy(() -> ProviderConfig.builder("p").baseUrl("http://exa mple"))
                .hasMessageContaining("is not a URL");
    }

    @Test
    void refusesAKeyWhereAnEnvVarNameBelongsWithoutEchoingIt() {
        assertThatThrownBy(() -> ProviderConfig.builder("p").key("sk-ant-api03-abcdef", AuthScheme.API_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be the NAME of an environment variable")
                .hasMessageNotContaining("sk-ant-api03-abcdef");
    }

    @Test
    void needsABaseUrlAndAnApiStyle() {
        assertThatThrownBy(() -> ProviderConfig.builder("p").apiStyles(ApiStyle.OPENAI).build())
                .hasMessageContaining("provider 'p' needs a base_url");
        assertThatThrownBy(() -> ProviderConfig.builder("p").baseUrl("http://127.0.0.1:1").build())
                .hasMessageContaining("must serve at least one API style");
    }

    @Test
    void theRootUrlDropsATrailingV1() {
        ProviderConfig c = ProviderConfig.builder("openai").apiStyles(ApiStyle.OPENAI)
                .baseUrl("https://api.openai.com/v1/").build();
        assertThat(c.rootUrl()).isEqualTo(URI.create("https://api.openai.com"));
    }

    @Test
    void deduplicatesTheCatalogueKeepingItsOrder() {
        ProviderConfig c = ProviderConfig.builder("p").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:1")
                .models("b", "a", "b").build();
        assertThat(c.models()).containsExactly("b", "a");
    }

    @Test
    void theScriptedProviderServesItsThreeStylesWithAnOptionalKey() {
        ProviderConfig c = ProviderConfig.scripted(URI.create("http://127.0.0.1:5555"), "scripted-a");
        assertThat(c.name()).isEqualTo("scripted");
        assertThat(c.apiStyles()).containsExactlyInAnyOrder(ApiStyle.ANTHROPIC, ApiStyle.OPENAI, ApiStyle.GEMINI);
        assertThat(c.keyEnv()).isEqualTo(ProviderConfig.SCRIPTED_KEY_ENV);
        assertThat(c.keyRequired()).isFalse();
        assertThat(c.defaultModel()).isEqualTo("scripted-a");
    }

    @Test
    void catalogueUrlsFollowTheBaseUrlShape() {
        ProviderConfig plain = ProviderConfig.builder("p").apiStyles(ApiStyle.OPENAI).baseUrl("http://h:1").build();
        ProviderConfig v1 = ProviderConfig.builder("p").apiStyles(ApiStyle.OPENAI).baseUrl("http://h:1/v1").build();
        ProviderConfig ollama = ProviderConfig.builder("p").apiStyles(ApiStyle.OLLAMA).baseUrl("http://h:1").build();

        assertThat(EndpointProbe.catalogueUrls(plain)).containsExactly(URI.create("http://h:1/v1/models"),
                URI.create("http://h:1/api/tags"));
        assertThat(EndpointProbe.catalogueUrls(v1)).containsExactly(URI.create("http://h:1/v1/models"),
                URI.create("http://h:1/api/tags"));
        assertThat(EndpointProbe.catalogueUrls(ollama)).containsExactly(URI.create("http://h:1/api/tags"),
                URI.create("http://h:1/v1/models"));
    }
}
