package dev.harness4j.core.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    private final ObjectMapper mapper = Json.mapper();

    @Test
    void writesASecretAsStars() throws Exception {
        assertThat(mapper.writeValueAsString(Map.of("key", Secret.of("sk-very-secret"))))
                .isEqualTo("{\"key\":\"***\"}");
    }

    @Test
    void aResolvedProviderInJsonShowsNoKey() throws Exception {
        ResolvedProvider p = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI),
                URI.create("http://127.0.0.1:9"), Secret.of("sk-very-secret"), AuthScheme.API_KEY, "scripted-a");

        String json = mapper.writeValueAsString(p);

        assertThat(json).doesNotContain("sk-very-secret").contains("\"secret\":\"***\"").contains("scripted-a");
    }

    @Test
    void eachCallGivesItsOwnMapper() {
        assertThat(Json.mapper()).isNotSameAs(Json.mapper());
    }
}
