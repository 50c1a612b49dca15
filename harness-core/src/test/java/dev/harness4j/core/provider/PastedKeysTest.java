package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key pasted where a config value belongs never comes back whole in a message (nor in a log
 * line), and a key pasted as {@code key_env} is warned about. The keys are made up.
 */
class PastedKeysTest {
    static final String GROQ_LIKE = "gsk_Q7wLm2Xp9RtV4nB8cZ1yK6hJ3fD5sA0eG2uI";
    static final String GOOGLE_LIKE = "AIzaSyD4k9Lq2Wm7Xv1Zp8Rt3Yb6Nc0Hf5Jg2Ke";

    @TempDir
    Path dir;

    private Path file(String providerJson) throws IOException {
        return Files.writeString(dir.resolve("providers.json"),
                "{\"schema_version\": 1, \"providers\": [" + providerJson + "]}");
    }

    @Test
    void aKeyShapedLikeAVariableNameIsNotEchoedWhenItIsNotSet() throws IOException {
        Path f = file("{\"name\": \"groq\", \"api_styles\": [\"openai\"], \"base_url\": \"https://api.groq.com/openai\","
                + " \"key_env\": \"" + GROQ_LIKE + "\", \"default_model\": \"m\"}");
        Providers providers = Providers.builder().configFile(f).environment(Map.of()).build();

        Throwable t = catchThrowable(() -> providers.resolve("groq", null));

        assertThat(t).hasMessageContaining("key_env").hasMessageContaining("looks like a key");
        assertThat(t.getMessage()).doesNotContain(GROQ_LIKE).doesNotContain(GROQ_LIKE.substring(0, 12));
    }

    @Test
    void aKeyInTheBaseUrlQueryIsNotEchoed() throws IOException {
        Path f = file("{\"name\": \"gemini\", \"api_styles\": [\"openai\"],"
                + " \"base_url\": \"https://generativelanguage.googleapis.com/v1beta?key=" + GOOGLE_LIKE + "\"}");

        Throwable fromFile = catchThrowable(() -> ProvidersFile.read(f));
        Throwable inCode = catchThrowable(() -> ProviderConfig.builder("gemini")
                .baseUrl("https://generativelanguage.googleapis.com/v1beta?key=" + GOOGLE_LIKE));

        assertThat(fromFile).isInstanceOf(ProviderConfigException.class).hasMessageContaining("base_url");
        assertThat(inCode).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("base_url");
        for (Throwable t : new Throwable[] {fromFile, inCode}) {
            assertThat(everyMessage(t)).doesNotContain(GOOGLE_LIKE).doesNotContain(GOOGLE_LIKE.substring(0, 12));
        }
    }

    @Test
    void aKeyPastedAsTheAuthValueIsNotEchoed() throws IOException {
        Path f = file("{\"name\": \"a\", \"api_styles\": [\"anthropic\"], \"base_url\": \"https://api.anthropic.com\","
                + " \"key_env\": \"ANTHROPIC_API_KEY\", \"auth\": \"" + GROQ_LIKE + "\"}");

        Throwable t = catchThrowable(() -> ProvidersFile.read(f));

        assertThat(t).isInstanceOf(ProviderConfigException.class).hasMessageContaining("auth value")
                .hasMessageContaining("unknown");
        assertThat(everyMessage(t)).doesNotContain(GROQ_LIKE).doesNotContain(GROQ_LIKE.substring(0, 12));
    }

    @Test
    void aTypoInTheAuthValueIsStillShown() throws IOException {
        Path f = file("{\"name\": \"a\", \"api_styles\": [\"anthropic\"], \"base_url\": \"https://api.anthropic.com\","
                + " \"key_env\": \"ANTHROPIC_API_KEY\", \"auth\": \"bearr\"}");

        assertThat(catchThrowable(() -> ProvidersFile.read(f))).hasMessageContaining("auth value 'bearr'");
    }

    @Test
    void aKeyEnvThatLooksLikeAKeyIsWarnedAboutWithoutPrintingIt() {
        PrintStream realErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Providers.builder().add(ProviderConfig.builder("groq").apiStyles(ApiStyle.OPENAI)
                    .baseUrl("https://api.groq.com/openai").key(GROQ_LIKE, AuthScheme.BEARER).build())
                    .add(ProviderConfig.builder("fine").apiStyles(ApiStyle.OPENAI)
                            .baseUrl("https://api.openai.com").key("OPENAI_API_KEY", AuthScheme.BEARER).build())
                    .environment(Map.of()).build();
        } finally {
            System.setErr(realErr);
        }
        String logs = captured.toString(StandardCharsets.UTF_8);
        realErr.print(logs);

        assertThat(logs).contains("WARN").contains("key_env of provider 'groq'").contains("looks like a key")
                .doesNotContain(GROQ_LIKE).doesNotContain(GROQ_LIKE.substring(0, 12))
                .doesNotContain("provider 'fine'");
    }

    /** The messages of a throwable and all its causes: a chained exception must not quote the key either. */
    private static String everyMessage(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c).append('\n');
        }
        return sb.toString();
    }
}
