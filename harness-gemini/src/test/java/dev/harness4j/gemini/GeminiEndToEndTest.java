package dev.harness4j.gemini;

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

import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code gemini} CLI through {@link HarnessRunner} against the scripted model server's
 * Gemini API, for what the contract kit does not check: the file written with the scripted tokens
 * and answering model as they land in {@code meta.json}, a mismatching answering model, a rate
 * limit, Google's refused key and a dropped connection classified, and a fake HOME (with its own {@code .gemini},
 * {@code .npm} and {@code .cache}) left untouched. Each run's raw stdout and stderr are written to
 * {@code target/gemini-captures/}; the fixtures under {@code src/test/resources/captured} were
 * copied from there.
 */
@RealCli
class GeminiEndToEndTest {
    private static final String KEY = "AIza-gemini-e2e-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CAPTURES = Path.of("target", "gemini-captures");
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null);
    private static final String PROMPT = "Do the \"scripted\" task:\n  write hello.txt — and nothing else.";

    private static ScriptedModelServer server;

    @TempDir
    Path tmp;

    private Path baseline;
    private Path home;
    private Path stateDir;

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
        Clis.require(new GeminiHarness());
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        home = tmp.resolve("home");
        // a user's own Gemini settings, npm and cache dirs: none may be read or written by a run
        GitRepos.write(home, ".gemini/settings.json", "{\"model\": {\"name\": \"not-the-run-model\"}}\n");
        GitRepos.write(home, ".npm/_cacache/index", "user npm cache\n");
        GitRepos.write(home, ".cache/user.txt", "user cache\n");
        stateDir = tmp.resolve("state");
    }

    @Test
    void writeFileScenarioWritesTheFileWithTheScriptedTokensAndTheAnsweringModel() throws Exception {
        String model = "gemini-write";
        server.script(model, Scenario.builder()
                .writeFile("hello.txt", "hello from gemini\n").usage(100, 20, 30, 0)
                .say("Wrote hello.txt.").usage(110, 5, 0, 0)
                .build());
        Map<String, String> homeBefore = OfflineHome.snapshot(home);
        Map<String, String> baselineBefore = GitRepos.fingerprint(baseline);

        Run run = run(model, provider(model));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(run.patch()).contains("+hello from gemini");
        JsonNode tokens = run.meta.path("tokens");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(100 + 110);
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = run.meta.path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        assertThat(own.path("cache_read").asLong()).isEqualTo(tokens.path("cache_read").asLong());
        assertThat(run.meta.path("cost").isNull()).as("gemini prints no cost").isTrue();
        assertThat(run.meta.path("served_model").path("answered")).extracting(JsonNode::asText).containsExactly(model);
        assertThat(run.meta.path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(run.meta.path("summary").asText()).isEqualTo("Wrote hello.txt.");
        // the requested model went to the endpoint on every request, and the prompt arrived intact
        assertThat(run.requests).hasSize(2).allSatisfy(r -> {
            assertThat(r.model()).isEqualTo(model);
            assertThat(r.path()).isEqualTo("/v1beta/models/" + model + ":streamGenerateContent");
            assertThat(r.protocol()).isEqualTo("gemini");
        });
        String escapedPrompt = JSON.writeValueAsString(PROMPT);
        assertThat(run.requests.get(0).body()).contains(escapedPrompt.substring(1, escapedPrompt.length() - 1));
        assertThat(OfflineHome.snapshot(home)).as("the fake HOME, .gemini, .npm and .cache included").isEqualTo(homeBefore);
        assertThat(GitRepos.fingerprint(baseline)).as("the baseline").isEqualTo(baselineBefore);
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(run.record.resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    @Test
    void answeringModelOtherThanTheRequestedOneIsAMismatch() throws Exception {
        String model = "gemini-swap";
        server.script(model, Scenario.builder().say("Nothing to do.").usage(40, 4, 0, 0).answerAs("gemini-other").build());

        Run run = run(model, provider(model));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("no-op");
        assertThat(run.meta.path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly("gemini-other");
        assertThat(run.meta.path("served_model").path("verdict").asText()).isEqualTo("mismatch");
        assertThat(run.meta.path("adapter").path("served_model").path("answered")).extracting(JsonNode::asText)
                .as("the CLI's own stats are keyed by modelVersion").containsExactly("gemini-other");
        assertThat(run.meta.path("tokens").path("input").asLong()).isEqualTo(40);
    }

    @Test
    void rateLimitedEndpointEndsRateLimitedWithTheResetTime() throws Exception {
        String model = "gemini-429";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < GeminiSettings.DEFAULT_MAX_ATTEMPTS + 2; i++) { // the CLI's attempts, and some to spare
            s.failRateLimited(Duration.ofSeconds(30));
        }
        server.script(model, s.build());
        Instant started = Instant.now();

        Run run = run(model, provider(model));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta.path("reason").asText()).contains("429");
        assertThat(run.meta.path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(Instant.parse(run.meta.path("retry_at").asText())).isAfter(started.plusSeconds(29));
        assertThat(run.meta.path("tokens").path("source").isNull()).as("nothing answered").isTrue();
        assertThat(run.meta.path("adapter").path("tokens").path("source").isNull()).as("nothing answered").isTrue();
        assertThat(run.requests).hasSize(GeminiSettings.DEFAULT_MAX_ATTEMPTS);
    }

    /**
     * Google answers a key it does not know with 400 {@code INVALID_ARGUMENT} / {@code
     * API_KEY_INVALID}, not 401: a refused key all the same ({@code auth}), by the rule the
     * provider catalogue's probe follows too ({@link dev.harness4j.api.support.Outcomes#refusesKey}).
     */
    @Test
    void googlesAnswerToAKeyItDoesNotKnowEndsAuth() throws Exception {
        String model = "gemini-bad-key";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < GeminiSettings.DEFAULT_MAX_ATTEMPTS + 2; i++) {
            s.failWithBody(400, REFUSED_KEY_BODY);
        }
        server.script(model, s.build());

        Run run = run(model, provider(model));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("auth");
        assertThat(run.meta.path("reason").asText()).contains("API key not valid");
        assertThat(run.meta.path("retry_at").isNull()).isTrue();
        assertThat(run.requests).as("a refused key is not retried").isNotEmpty();
    }

    /** Google's answer to a key it does not know, as the Generative Language API sends it. */
    static final String REFUSED_KEY_BODY = "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a "
            + "valid API key.\",\"status\":\"INVALID_ARGUMENT\",\"details\":[{\"@type\":\"type.googleapis.com/"
            + "google.rpc.ErrorInfo\",\"reason\":\"API_KEY_INVALID\",\"domain\":\"googleapis.com\",\"metadata\":"
            + "{\"service\":\"generativelanguage.googleapis.com\"}}]}}";

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        String model = "gemini-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < GeminiSettings.DEFAULT_MAX_ATTEMPTS + 2; i++) {
            s.dropConnection();
        }
        server.script(model, s.build());

        Run run = run(model, provider(model));

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("transient");
        assertThat(run.meta.path("retry_at").isNull()).isTrue();
        assertThat(run.meta.path("adapter").path("tokens").path("source").isNull()).as("nothing answered").isTrue();
    }

    private ResolvedProvider provider(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.GEMINI), server.baseUrl(), Secret.of(KEY),
                AuthScheme.API_KEY, model);
    }

    private Run run(String model, ResolvedProvider provider) throws Exception {
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
                .stateDir(stateDir)
                .runnerEnvironment(env)
                .registry(HarnessRegistry.builder().add(new GeminiHarness()).build())
                .providers(resolver)
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine o) {
                        (o.stream() == HarnessEvent.Stream.STDOUT ? out : err).add(o.text());
                    }
                })
                .build()) {
            record = runner.run(RunSpec.builder(GeminiHarness.ID, provider.name())
                    .model(model).prompt(PROMPT).baseline(baseline).limits(LIMITS).build());
        }
        Files.createDirectories(CAPTURES);
        Files.write(CAPTURES.resolve(model + ".stdout.jsonl"), out);
        Files.write(CAPTURES.resolve(model + ".stderr.log"), err);
        List<RecordedRequest> requests = server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> model.equals(r.model())).toList();
        JsonNode meta = JSON.readTree(record.resultDir().resolve("meta.json").toFile());
        return new Run(record, meta, requests, out, err);
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
