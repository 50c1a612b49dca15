package dev.harness4j.miniswe;

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
import dev.harness4j.testkit.OfflineHome;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real mini-swe-agent through {@link HarnessRunner} against the scripted model server's Chat
 * Completions API (LiteLLM's {@code openai/} route): a file written, tokens and the answering
 * models from its trajectory as they land in {@code meta.json}, a rate limit, a dropped
 * connection and the step limit classified, and a fake HOME left untouched.
 *
 * <p>Each run's stdout, stderr and trajectory are written to {@code target/mini-swe-agent-captures/};
 * the fixtures under {@code src/test/resources/captured} were copied from there.
 */
@RealCli
class MiniSweAgentEndToEndTest {
    private static final String KEY = "sk-mini-e2e-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CAPTURES = Path.of("target", "mini-swe-agent-captures");
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(150), Duration.ofSeconds(300), null);
    private static final String PROMPT = "Do the \"scripted\" task:\n  write hello.txt {{ not a template }} — and nothing else.";
    private static final String SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";

    private static ScriptedModelServer server;

    @TempDir
    Path tmp;

    private Path baseline;
    private Path home;
    private Map<String, String> homeBefore;
    private Map<String, String> baselineBefore;

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
        Clis.require(new MiniSweAgentHarness());
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        home = tmp.resolve("home");
        // a user's own mini-swe-agent config, npm and cache dirs: none may be read or written by a run
        GitRepos.write(home, ".config/mini-swe-agent/.env", "MSWEA_MODEL_NAME=openai/not-the-run-model\n");
        GitRepos.write(home, ".npm/_cacache/index", "user npm cache\n");
        GitRepos.write(home, ".cache/user.txt", "user cache\n");
        homeBefore = OfflineHome.snapshot(home);
        baselineBefore = GitRepos.fingerprint(baseline);
    }

    @AfterEach
    void homeAndBaselineAreUntouched() {
        assertThat(OfflineHome.snapshot(home)).as("the fake HOME, .config, .npm and .cache included").isEqualTo(homeBefore);
        assertThat(GitRepos.fingerprint(baseline)).as("the baseline").isEqualTo(baselineBefore);
    }

    @Test
    void shellScenarioWritesTheFileWithTheScriptedTokensAndTheAnsweringModels() throws Exception {
        String model = "mini-write";
        server.script(model, Scenario.builder()
                .shell("printf 'hello from mini\\n' > hello.txt").usage(100, 20, 30, 0)
                .shell(SUBMIT).usage(110, 5, 0, 0).answerAs("mini-other")
                .build());

        Run run = run(model, provider(model), Map.of(), LIMITS);

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(run.patch()).contains("+hello from mini");
        JsonNode tokens = run.meta.path("tokens");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(100 + 110);
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = run.meta.path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        assertThat(own.path("cache_write").isNumber()).as("the server sent no cache-write figure: unmeasured; " + own)
                .isFalse();
        assertThat(run.meta.path("cost").isNull()).as("an unpriced model has no cost").isTrue();
        assertThat(run.meta.path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly(model, "mini-other");
        assertThat(run.meta.path("served_model").path("verdict").asText()).isEqualTo("mismatch");
        // the requested model went to the endpoint on every request, and the prompt arrived intact
        assertThat(run.requests).hasSize(2).allSatisfy(r -> {
            assertThat(r.model()).isEqualTo(model);
            assertThat(r.path()).isEqualTo("/v1/chat/completions");
        });
        String escapedPrompt = JSON.writeValueAsString(PROMPT);
        assertThat(run.requests.get(0).body()).contains(escapedPrompt.substring(1, escapedPrompt.length() - 1));
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(run.record.resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    @Test
    void stepLimitEndsMaxTurns() throws Exception {
        String model = "mini-steps";
        server.script(model, Scenario.builder()
                .shell("true").usage(10, 2, 0, 0).shell("true").usage(10, 2, 0, 0).shell(SUBMIT).build());

        Run run = run(model, provider(model), Map.of(), LIMITS.withMaxTurns(1));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("max-turns");
        assertThat(run.meta.path("tokens").path("input").asLong()).isEqualTo(10);
    }

    @Test
    void rateLimitedEndpointEndsRateLimitedWithTheResetTime() throws Exception {
        String model = "mini-429";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 6; i++) { // one attempt; the OpenAI client tries three times
            s.failRateLimited(Duration.ofSeconds(1));
        }
        server.script(model, s.build());
        Instant started = Instant.now().minusSeconds(1);

        Run run = run(model, provider(model), Map.of(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS, "1"), LIMITS);

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta.path("reason").asText()).contains("RateLimitError");
        assertThat(run.meta.path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(Instant.parse(run.meta.path("retry_at").asText())).isAfter(started);
        assertThat(run.meta.path("tokens").path("source").isNull()).as("no answer arrived").isTrue();
    }

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        String model = "mini-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 6; i++) {
            s.dropConnection();
        }
        server.script(model, s.build());

        Run run = run(model, provider(model), Map.of(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS, "1"), LIMITS);

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("transient");
        assertThat(run.meta.path("retry_at").isNull()).isTrue();
        assertThat(run.meta.path("tokens").path("source").isNull()).as("no answer arrived").isTrue();
    }

    private ResolvedProvider provider(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), server.baseUrl(), Secret.of(KEY),
                AuthScheme.BEARER, model);
    }

    private Run run(String model, ResolvedProvider provider, Map<String, String> options, Limits limits)
            throws Exception {
        List<String> out = new CopyOnWriteArrayList<>();
        List<String> err = new CopyOnWriteArrayList<>();
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
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", home.toString());
        int before = server.requests().size();
        RunRecord record;
        try (HarnessRunner runner = HarnessRunner.builder()
                .stateDir(tmp.resolve("state"))
                .runnerEnvironment(env)
                .registry(HarnessRegistry.builder().add(new MiniSweAgentHarness()).build())
                .providers(resolver)
                .listener(e -> {
                    if (e instanceof HarnessEvent.StatusChanged sc && sc.status() == HarnessEvent.Status.CAPTURING) {
                        keepTrajectory(sc.runId(), model); // the scratch dir goes when the run is captured
                    }
                    if (e instanceof HarnessEvent.OutputLine o) {
                        (o.stream() == HarnessEvent.Stream.STDOUT ? out : err).add(o.text());
                    }
                })
                .build()) {
            RunSpec.Builder spec = RunSpec.builder(MiniSweAgentHarness.ID, provider.name())
                    .model(model).prompt(PROMPT).baseline(baseline).limits(limits);
            options.forEach(spec::option);
            record = runner.run(spec.build());
        }
        Files.createDirectories(CAPTURES);
        Files.write(CAPTURES.resolve(model + ".stdout.jsonl"), out);
        Files.write(CAPTURES.resolve(model + ".stderr.log"), err);
        List<RecordedRequest> requests = server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> model.equals(r.model())).toList();
        JsonNode meta = JSON.readTree(record.resultDir().resolve("meta.json").toFile());
        return new Run(record, meta, requests, out, err);
    }

    /** Copies the run's trajectory (in core's per-run scratch dir) to the captures, for fixtures. */
    private void keepTrajectory(String runId, String model) {
        Path trajectory = tmp.resolve("state").resolve("runs").resolve(runId).resolve("scratch")
                .resolve(MiniSweAgentInvocations.TRAJECTORY_FILE);
        try {
            Files.createDirectories(CAPTURES);
            if (Files.exists(trajectory)) {
                Files.copy(trajectory, CAPTURES.resolve(model + ".trajectory.json"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    /** One finished run as the test reads it. */
    private record Run(RunRecord record, JsonNode meta, List<RecordedRequest> requests, List<String> stdout,
            List<String> stderr) {
        String patch() throws IOException {
            Path p = record.resultDir().resolve("diff.patch");
            return Files.exists(p) ? Files.readString(p) : "";
        }

        String describe() {
            return meta.toPrettyString() + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr (tail):\n"
                    + String.join("\n", stderr.subList(Math.max(0, stderr.size() - 10), stderr.size()));
        }
    }
}
