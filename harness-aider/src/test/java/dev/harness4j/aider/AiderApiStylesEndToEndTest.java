package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real {@code aider} on the scripted provider serving only one API style, for each style LiteLLM
 * speaks: the run goes through the meter on LiteLLM's route for that style, writes the scripted
 * file, and the metered tokens are exactly the scripted usage (no auto-commit, so no commit-message
 * call; no streaming, so the endpoint's usage is on the wire for every style).
 */
@RealCli
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AiderApiStylesEndToEndTest {
    private static final String KEY = ScriptedProvider.KEY;

    private ScriptedModelServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    void startServer() {
        Clis.require(new AiderHarness());
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiStyle.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void aProviderServingOnlyOneStyleRunsMeteredOnLiteLlmsRouteForIt(ApiStyle style) throws Exception {
        String model = "aider-" + style.name().toLowerCase(Locale.ROOT);
        server.script(model, Scenario.builder().writeFile("hello.txt", "hello over " + style + "\n")
                .usage(1234, 56, 0, 0).build());

        RunRecord r = run(style, model);

        String transcript = Files.readString(r.resultDir().resolve("transcript.log"));
        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().files()).containsExactly("hello.txt");
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("+hello over " + style);
        List<RecordedRequest> calls = server.requests(RecordedRequest.Kind.TURN).stream()
                .filter(q -> model.equals(q.model())).toList();
        assertThat(calls).as("the model calls").hasSize(1).allSatisfy(q -> {
            assertThat(q.path()).isEqualTo(switch (style) {
                case OPENAI -> "/v1/chat/completions";
                case ANTHROPIC -> "/v1/messages";
                default -> "/v1beta/models/" + model + ":generateContent";
            });
            assertThat(q.authHeaders()).containsExactly(switch (style) {
                case OPENAI -> "authorization";
                case ANTHROPIC -> "x-api-key";
                default -> "x-goog-api-key";
            });
        });
        TokenUsage wire = r.result().tokens();
        assertThat(wire.source()).as("measured by the meter").isEqualTo(TokenUsage.Source.METERED);
        assertThat(wire.input()).as("tokens %s", wire).isEqualTo(1234L);
        assertThat(wire.output()).isEqualTo(56L);
        assertThat(r.meter().modelRequests()).isEqualTo(1);
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(r.resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    private RunRecord run(ApiStyle style, String model) throws Exception {
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state-" + model))
                .registry(HarnessRegistry.builder().add(new AiderHarness()).build())
                .providers(new ScriptedProvider(server, Set.of(style)))
                .pushBranches(false).build()) {
            RunSpec.Builder spec = RunSpec.builder(AiderHarness.ID, ScriptedProvider.NAME).model(model)
                    .prompt("Create hello.txt with a greeting.").baseline(GitRepos.baseline(tmp.resolve("base-" + model)))
                    .limits(dev.harness4j.api.Limits.NONE.withMaxRuntime(Duration.ofMinutes(4)));
            Map.of(AiderOptions.STREAM, "false", AiderOptions.AUTO_COMMITS, "false").forEach(spec::option);
            return runner.run(spec.build());
        }
    }
}
