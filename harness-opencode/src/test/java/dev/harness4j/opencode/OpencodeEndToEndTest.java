package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code opencode} binary through {@link HarnessRunner} against the scripted model
 * server: outcomes, exact diffs, tokens and isolation as they land in {@code meta.json}. The
 * write-file-with-tokens and refused-key scenarios are not here: they run once, in {@link
 * OpencodeContractTest}'s completed and failing runs.
 *
 * <p>Each run's raw stdout is also written to {@code target/opencode-captures/<model>.jsonl};
 * the parse tests' resources under {@code src/test/resources/captured} were copied from there.
 */
@RealCli
class OpencodeEndToEndTest {
    private static final String KEY = "sk-opencode-e2e-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CAPTURES = Path.of("target", "opencode-captures");
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(90), Duration.ofSeconds(150), null);

    private static ScriptedModelServer server;
    private static final Map<String, List<String>> stdout = new ConcurrentHashMap<>();

    @TempDir
    Path tmp;

    private Path baseline;
    private Map<String, String> userTreesBefore;
    private String baselineBefore;

    @BeforeAll
    static void startServer() {
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        Clis.require(new OpencodeHarness());
        baseline = TestRepos.baseline(tmp.resolve("baseline"));
        userTreesBefore = TestRepos.userOpencodeTrees();
        baselineBefore = TestRepos.treeDigest(baseline);
    }

    @AfterEach
    void userStateAndBaselineAreUntouched() throws Exception {
        assertThat(TestRepos.userOpencodeTrees()).as("the user's own opencode dirs").isEqualTo(userTreesBefore);
        assertThat(TestRepos.treeDigest(baseline)).as("the baseline repository, .git included").isEqualTo(baselineBefore);
        assertThat(baseline.resolve(".git/opencode")).as("opencode's project id file").doesNotExist();
    }

    @Test
    void shellScenarioCompletesAndPricedModelReportsTheConfiguredCost() throws Exception {
        String model = "oc-shell";
        server.script(model, Scenario.builder()
                .shell("printf 'shelled %s\\n' ok > shell.txt").usage(1000, 100, 0, 0)
                .say("Ran it.").usage(2000, 50, 0, 0)
                .build());

        Run run = run(model, provider(model), Map.of(OpencodeHarness.OPTION_PRICE_INPUT, "3",
                OpencodeHarness.OPTION_PRICE_OUTPUT, "15"));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("shell.txt");
        assertThat(run.patch()).contains("+shelled ok");
        assertThat(events(run, "tool_use")).as(run.describe())
                .anySatisfy(e -> assertThat(e.path("part").path("tool").asText()).isEqualTo("bash"));
        assertThat(run.meta.path("tokens").path("input").asLong()).isEqualTo(3000);
        assertThat(run.meta.path("tokens").path("output").asLong()).isEqualTo(150);
        // 3000 * 3 / 1e6 + 150 * 15 / 1e6
        assertThat(run.meta.path("cost").path("usd").decimalValue()).isEqualByComparingTo("0.01125");
        assertThat(run.meta.path("cost").path("source").asText()).isEqualTo("configured_price");
    }

    @Test
    void scenarioThatOnlyTalksIsANoOp() throws Exception {
        String model = "oc-talk";
        server.script(model, Scenario.builder().say("Nothing to change here.").usage(50, 7, 0, 0).build());

        Run run = run(model, provider(model), Map.of());

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("no-op");
        assertThat(run.meta.path("changes").path("files")).isEmpty();
        assertThat(run.meta.path("summary").asText()).isEqualTo("Nothing to change here.");
        assertThat(run.meta.path("tokens").path("input").asLong()).isEqualTo(50);
        assertThat(run.meta.path("cost").isNull()).as("an unpriced model has no cost").isTrue();
    }

    @Test
    void rateLimitedEndpointEndsRateLimitedWithTheResetTime() throws Exception {
        String model = "oc-429";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 8; i++) { // opencode tries once and retries five times
            s.failRateLimited(Duration.ofMillis(50));
        }
        server.script(model, s.build());

        Run run = run(model, provider(model), Map.of());

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta.path("reason").asText()).contains("429");
        assertThat(run.meta.path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(run.meta.path("tokens").path("source").isNull()).as("no step finished").isTrue();
    }

    @Test
    void connectionDroppedMidAnswerEndsTransient() throws Exception {
        String model = "oc-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 8; i++) { // opencode tries once and retries five times
            s.dropConnection();
        }
        server.script(model, s.build());

        Run run = run(model, provider(model), Map.of());

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("transient");
        assertThat(run.meta.path("changes").path("files")).isEmpty();
        assertThat(run.meta.path("tokens").path("source").isNull()).as("no step finished").isTrue();
    }

    @Test
    void contextLengthRefusalEndsContextOverflow() throws Exception {
        String model = "oc-context";
        server.script(model, Scenario.builder().failContextLength().failContextLength().build());

        Run run = run(model, provider(model), Map.of());

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("context-overflow");
        assertThat(run.meta.path("exit_code").asInt()).isEqualTo(1);
        assertThat(events(run, "error")).as("opencode reports the refusal as an error event").isNotEmpty();
    }

    @Test
    void anthropicOnlyProviderIsServedThroughTheBundledAnthropicPackage() throws Exception {
        String model = "oc-anthropic";
        server.script(model, Scenario.builder()
                .writeFile("anthropic.txt", "via messages\n").usage(40, 4, 0, 0)
                .say("Done via Anthropic.").usage(41, 3, 0, 0)
                .build());
        ResolvedProvider anthropic = new ResolvedProvider("scripted-anthropic", EnumSet.of(ApiStyle.ANTHROPIC),
                server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, model);

        Run run = run(model, anthropic, Map.of());

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.patch()).contains("+via messages");
        assertThat(run.requests).isNotEmpty().allSatisfy(r -> {
            assertThat(r.path()).isEqualTo("/v1/messages");
            assertThat(r.authHeaders()).containsExactly("x-api-key");
        });
        assertThat(run.meta.path("tokens").path("output").asLong()).isEqualTo(7);
    }

    private ResolvedProvider provider(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC), server.baseUrl(),
                Secret.of(KEY), AuthScheme.API_KEY, model);
    }

    private Run run(String model, ResolvedProvider provider, Map<String, String> options) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        ProviderResolver resolver = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String name, String requestedModel) {
                return Optional.of(provider);
            }

            @Override
            public Set<String> providerNames() {
                return Set.of(provider.name());
            }
        };
        RunSpec.Builder spec = RunSpec.builder(OpencodeHarness.ID, provider.name())
                .model(model).prompt("Do the scripted task.").baseline(baseline).limits(LIMITS);
        options.forEach(spec::option);
        int before = server.requests().size();
        RunRecord record;
        try (HarnessRunner runner = HarnessRunner.builder()
                .stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new OpencodeHarness()).build())
                .providers(resolver)
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine o && o.stream() == HarnessEvent.Stream.STDOUT) {
                        lines.add(o.text());
                    }
                })
                .build()) {
            record = runner.run(spec.build());
        }
        Files.createDirectories(CAPTURES);
        Files.write(CAPTURES.resolve(model + ".jsonl"), lines);
        stdout.put(model, lines);
        List<RecordedRequest> requests = server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> model.equals(r.model())).toList();
        JsonNode meta = JSON.readTree(record.resultDir().resolve("meta.json").toFile());
        return new Run(record, meta, requests, lines);
    }

    /** The run's stdout events of one {@code type}. */
    private static List<JsonNode> events(Run run, String type) throws Exception {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : run.stdout.stream().filter(l -> l.startsWith("{")).toList()) {
            JsonNode n = JSON.readTree(line);
            if (type.equals(n.path("type").asText())) {
                out.add(n);
            }
        }
        return out;
    }

    /** One finished run as the test reads it. */
    private record Run(RunRecord record, JsonNode meta, List<RecordedRequest> requests, List<String> stdout) {
        String patch() throws Exception {
            Path p = record.resultDir().resolve("diff.patch");
            return Files.exists(p) ? Files.readString(p) : "";
        }

        String describe() {
            return meta.toPrettyString() + "\nstdout:\n" + String.join("\n", stdout);
        }
    }
}
