package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.aider.AiderHarness;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.provider.Catalogue;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import dev.harness4j.testkit.model.Usage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real CLIs through meter → a real LiteLLM proxy → the scripted model server: claude-code on
 * LiteLLM's Anthropic route ({@code /v1/messages}, an {@code anthropic/} deployment), opencode and
 * aider on its OpenAI route ({@code /v1/chat/completions}, {@code openai/} deployments). The
 * provider has a {@code litellm} gateway; this LiteLLM has no database (its virtual keys and
 * spend logs need PostgreSQL plus Prisma engines that only binaries.prisma.sh serves), so minting
 * fails for real and every run goes on degraded with the configured key, saying so; the stub
 * covers keys and spend ({@code GatewayAccountingTest} in harness-testkit).
 */
@RealCli
class LiteLlmEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MASTER = "sk-litellm-master-e2e-31415926";
    private static final String MASTER_ENV = "H4J_E2E_LITELLM_MASTER_KEY";
    private static final String BACKEND_KEY = "sk-scripted-backend-27182818";
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(4));

    @TempDir static Path shared;
    private static ScriptedModelServer server;
    private static LiteLlmProxy litellm;
    private static Providers providers;

    @TempDir Path tmp;

    @BeforeAll
    static void start() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        Path exe = LiteLlmProxy.require();
        server = ScriptedModelServer.start().requireKey(BACKEND_KEY);
        String backend = server.baseUrl().toString();
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (String harness : new String[] {"claude-code", "opencode", "aider"}) {
            boolean anthropic = harness.equals("claude-code");
            yaml.append("  - model_name: ").append(model(harness)).append('\n')
                    .append("    litellm_params:\n")
                    .append("      model: ").append(anthropic ? "anthropic/" : "openai/").append(model(harness)).append('\n')
                    .append("      api_base: ").append(anthropic ? backend : backend + "/v1").append('\n')
                    .append("      api_key: ").append(BACKEND_KEY).append('\n');
        }
        yaml.append("litellm_settings:\n  num_retries: 0\n  drop_params: true\n")
                .append("general_settings:\n  master_key: ").append(MASTER).append('\n');
        litellm = LiteLlmProxy.start(exe, shared.resolve("litellm"), yaml.toString());
        ProviderConfig gateway = ProviderConfig.builder("litellm").apiStyles(ApiStyle.ANTHROPIC, ApiStyle.OPENAI)
                .baseUrl(litellm.baseUrl()).key(MASTER_ENV, AuthScheme.BEARER)
                .gateway(ProviderConfig.Gateway.litellm(MASTER_ENV)).build();
        providers = Providers.builder().add(gateway).environment(Map.of(MASTER_ENV, MASTER)).build();
    }

    @AfterAll
    static void stop() {
        if (litellm != null) {
            litellm.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String model(String harness) {
        return "gw-e2e-" + harness;
    }

    @Test
    void healthAndCatalogueAuthenticateWithTheAdminKey() {
        HealthCheck h = providers.health("litellm");
        assertThat(h.healthy()).as(h.detail()).isTrue();
        assertThat(h.endpoint().getPath()).isEqualTo("/health/readiness");

        Catalogue c = providers.fetchCatalogue("litellm"); // LiteLLM's /v1/models refuses a call without a key
        assertThat(c.models()).contains(model("claude-code"), model("opencode"), model("aider"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void eachCliCompletesThroughLiteLlmWithTheScriptedUsageOnTheMeter(String harness) throws Exception {
        String model = model(harness);
        server.script(model, Scenario.builder()
                .writeFile("hello.txt", "hello through the gateway\n").usage(1234, 56, 0, 0)
                .say("Wrote hello.txt.").usage(1300, 25, 0, 0).build());
        Path baseline = BenchMain.sampleRepo(tmp.resolve("baseline"));
        RunRecord record;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).providers(providers)
                .build()) {
            RunSpec.Builder spec = RunSpec.builder(harness, "litellm").model(model).prompt("Do the scripted task.")
                    .baseline(baseline).limits(LIMITS).option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0");
            if (harness.equals(AiderHarness.ID)) {
                spec.option("stream", "false"); // aider's streamed requests ask for no usage
            }
            record = runner.run(spec.build());
        }
        JsonNode meta = JSON.readTree(Files.readString(record.metaFile()));
        assertThat(meta.path("outcome").asText()).as("%s\n%s", meta.toPrettyString(), litellm.tail())
                .isEqualTo("completed");
        assertThat(record.changes().files()).contains("hello.txt");
        assertThat(RunMarker.find(record.runId())).isEmpty();
        long[] sent = sentUsage(model);
        assertThat(sent[0]).as("the scripted server answered through LiteLLM").isGreaterThanOrEqualTo(1234);
        JsonNode tokens = meta.path("tokens");
        assertThat(tokens.path("source").asText()).as(tokens.toString()).isEqualTo("metered");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(sent[0]);
        assertThat(tokens.path("output").asLong()).as(tokens.toString()).isEqualTo(sent[1]);
        // a real LiteLLM without a database cannot mint: the run went on with the configured key and says so
        JsonNode g = meta.path("gateway");
        assertThat(g.path("status").asText()).as(g.toString()).isEqualTo("degraded");
        assertThat(g.path("reason").asText()).contains("/key/generate");
        assertNoSecretIn(record.resultDir());
    }

    /** The usage the server sent for a model's answered calls: {input, output}. */
    private static long[] sentUsage(String model) {
        long[] sum = new long[2];
        for (RecordedRequest r : server.requests()) {
            if (!model.equals(r.model()) || r.status() != 200 || r.kind() == RecordedRequest.Kind.OTHER) {
                continue;
            }
            Usage u = r.kind() == RecordedRequest.Kind.SIDE_REQUEST ? Usage.SIDE_REQUEST : r.step().usage();
            sum[0] += u.input();
            sum[1] += u.output();
        }
        return sum;
    }

    private static void assertNoSecretIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
                assertThat(text).as(f.toString()).doesNotContain(MASTER).doesNotContain(BACKEND_KEY);
            }
        }
    }
}
