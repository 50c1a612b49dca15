package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code providers add}: real providers files, checked against the testkit's scripted model server. */
class ProvidersAddCommandTest {
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private String state() {
        return tmp.resolve("state").toString();
    }

    private Path file() {
        return ProvidersFile.in(tmp.resolve("state"));
    }

    @Test
    void addsPresetsToTheFileKeepingWhatIsThereAndChecksEach() throws Exception {
        // a hand-written file: its entry must stay byte for byte
        String kept = "{ \"name\": \"mine\", \"api_styles\": [\"openai\"],\n      \"base_url\": \"http://127.0.0.1:9\" }";
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "{\n  \"schema_version\": 1,\n  \"providers\": [\n    " + kept + "\n  ]\n}\n");
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            assertThat(run("providers", "add", "local", "--preset", "anthropic", "--base-url",
                    server.baseUrl().toString(), "--state-dir", state())).as(out + " " + err).isZero();
            assertThat(run("providers", "add", "gw", "--preset", "openai", "--base-url", server.baseUrl() + "/v1",
                    "--key-env", "HARNESS4J_TEST_GW_KEY", "--default-model", "scripted-a", "--state-dir", state()))
                    .as(out + " " + err).isZero();
        }
        assertThat(out.toString()).contains("added provider local to " + file(), "anthropic", "key from $ANTHROPIC_API_KEY",
                "default model claude-sonnet-4-5", "HARNESS4J_TEST_GW_KEY is not set in this environment");
        assertThat(out.toString()).containsPattern("local\\s+ok").containsPattern("gw\\s+ok");
        String text = Files.readString(file());
        assertThat(text).contains(kept).startsWith("{\n  \"schema_version\": 1,\n  \"providers\": [\n    " + kept + ",\n");
        List<ProviderConfig> all = ProvidersFile.read(file());
        assertThat(all).extracting(ProviderConfig::name).containsExactly("mine", "local", "gw");
        ProviderConfig local = all.get(1);
        assertThat(local.apiStyles()).isEqualTo(Set.of(ApiStyle.ANTHROPIC));
        assertThat(local.keyEnv()).isEqualTo("ANTHROPIC_API_KEY");
        assertThat(local.auth()).isEqualTo(AuthScheme.API_KEY);
        assertThat(local.defaultModel()).isEqualTo("claude-sonnet-4-5");
        assertThat(all.get(2).auth()).isEqualTo(AuthScheme.BEARER);
        assertThat(all.get(2).defaultModel()).isEqualTo("scripted-a");
        assertThat(run("providers", "list", "--state-dir", state())).isZero();
        assertThat(out.toString()).contains("gw", "scripted-a");
    }

    @Test
    void aNewFileAndAnEmptyListGetTheProviderAndAGatewayPresetKeepsItsAdminKeyName() throws Exception {
        assertThat(file()).doesNotExist();
        assertThat(run("providers", "add", "proxy", "--preset", "litellm", "--base-url", "http://127.0.0.1:9",
                "--state-dir", state())).as(out + " " + err).isEqualTo(Harness4j.FAILED); // nothing listens there
        assertThat(ProvidersFile.read(file())).singleElement().satisfies(c -> {
            assertThat(c.apiStyles()).isEqualTo(Set.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI));
            assertThat(c.gateway().adminKeyEnv()).isEqualTo("LITELLM_MASTER_KEY");
            assertThat(c.healthPath()).isEqualTo("/health/readiness");
        });
        Files.writeString(file(), "{\"schema_version\": 1, \"providers\": [ ]}");
        assertThat(run("providers", "add", "local", "--preset", "ollama", "--base-url", "http://127.0.0.1:9",
                "--state-dir", state())).isEqualTo(Harness4j.FAILED);
        assertThat(ProvidersFile.read(file())).singleElement().satisfies(c -> {
            assertThat(c.apiStyles()).isEqualTo(Set.of(ApiStyle.OLLAMA, ApiStyle.OPENAI));
            assertThat(c.keyEnv()).isNull();
        });
        assertThat(out.toString()).containsPattern("local\\s+unhealthy")
                .contains("local stays in " + file(), "harness4j providers check local");
    }

    @Test
    void anEndpointThatRefusesTheKeyStaysAddedAndExitsOne() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey("sk-test-required")) {
            assertThat(run("providers", "add", "strict", "--preset", "anthropic", "--base-url",
                    server.baseUrl().toString(), "--key-env", "HARNESS4J_TEST_UNSET_KEY", "--state-dir", state()))
                    .isEqualTo(Harness4j.FAILED);
        }
        assertThat(out.toString()).containsPattern("strict\\s+unhealthy").contains("strict stays in");
        assertThat(ProvidersFile.read(file())).extracting(ProviderConfig::name).containsExactly("strict");
    }

    @Test
    void aKeyIsNeverTakenAndBadInputWritesNothing() throws Exception {
        String secret = "sk-ant-api03-Zq9x7TopSecretValue";
        assertThat(run("providers", "add", "a", "--preset", "anthropic", "--key", secret, "--state-dir", state()))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("providers", "add", "a", "--preset", "anthropic", "--api-key=" + secret, "--state-dir", state()))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("providers", "add", "a", "--preset", "anthropic", "--key-env", secret, "--state-dir", state()))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("providers", "add", "a", "--preset", "anthropic", "--key-env", "Zq9x7TopSecretValue",
                "--state-dir", state())).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("providers", "add", "a", "--preset", secret, "--state-dir", state()))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("providers", "add", "a", "--preset", "anthropic", "--base-url",
                "https://api.anthropic.com/?key=" + secret, "--state-dir", state())).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("takes no key", "--key-env VAR", "never a key", "unknown --preset",
                "anthropic, openai, openrouter, gemini, ollama, litellm").doesNotContain("TopSecret");
        assertThat(out.toString()).doesNotContain("TopSecret");
        assertThat(file()).doesNotExist();

        Files.createDirectories(file().getParent());
        String before = "{\"schema_version\": 1, \"providers\": [{\"name\": \"a\", \"api_styles\": [\"openai\"],"
                + " \"base_url\": \"http://127.0.0.1:9\"}]}";
        Files.writeString(file(), before);
        assertThat(run("providers", "add", "a", "--preset", "openai", "--state-dir", state()))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("already has a provider 'a'", "nothing was written");
        assertThat(file()).content().isEqualTo(before);
    }

    @Test
    void helpListsEveryPresetWithWhatItSets() {
        assertThat(run("providers", "add", "--help")).isZero();
        assertThat(out.toString()).contains("Presets:", "anthropic", "https://api.anthropic.com", "ANTHROPIC_API_KEY",
                "openai", "https://api.openai.com/v1", "openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY",
                "gemini", "GEMINI_API_KEY", "ollama", "http://127.0.0.1:11434", "no key", "litellm",
                "LITELLM_MASTER_KEY", "--key-env", "--base-url", "--default-model").doesNotContain("--api-key");
    }
}
