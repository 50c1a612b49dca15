package dev.harness4j.miniswe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
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
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real mini-swe-agent on the scripted provider serving only one API style, for each style LiteLLM
 * speaks: the run goes through the meter on LiteLLM's route for that style (bash tool calls in
 * that API's shape), writes the file, and the metered tokens are exactly the scripted usage.
 */
@RealCli
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MiniSweAgentApiStylesEndToEndTest {
    private static final String KEY = ScriptedProvider.KEY;
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(150), Duration.ofSeconds(300), null);

    private ScriptedModelServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    void startServer() {
        Clis.require(new MiniSweAgentHarness());
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
        String model = "mini-" + style.name().toLowerCase(Locale.ROOT);
        server.script(model, Scenario.builder()
                .shell("printf 'hello over " + style + "\\n' > hello.txt").usage(100, 20, 0, 0)
                .shell("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT").usage(110, 5, 0, 0)
                .build());

        RunRecord r = run(style, model);

        assertThat(r.result().outcome()).as("%s\ntranscript:\n%s", r.result(),
                Files.readString(r.resultDir().resolve("transcript.log"))).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().files()).containsExactly("hello.txt");
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("+hello over " + style);
        List<RecordedRequest> calls = server.requests(RecordedRequest.Kind.TURN).stream()
                .filter(q -> model.equals(q.model())).toList();
        assertThat(calls).as("the model calls").hasSize(2).allSatisfy(q -> {
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
            assertThat(q.tools()).as("mini's bash tool, in this API's shape").containsExactly("bash");
        });
        TokenUsage wire = r.result().tokens();
        assertThat(wire.source()).as("measured by the meter").isEqualTo(TokenUsage.Source.METERED);
        assertThat(wire.input()).as("tokens %s", wire).isEqualTo(100L + 110L);
        assertThat(wire.output()).isEqualTo(20L + 5L);
        assertThat(r.meter().modelRequests()).isEqualTo(2);
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(r.resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    private RunRecord run(ApiStyle style, String model) {
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state-" + model))
                .registry(HarnessRegistry.builder().add(new MiniSweAgentHarness()).build())
                .providers(new ScriptedProvider(server, Set.of(style)))
                .build()) {
            return runner.run(RunSpec.builder(MiniSweAgentHarness.ID, ScriptedProvider.NAME).model(model)
                    .prompt("Write hello.txt.").baseline(GitRepos.withReadme(tmp.resolve("base-" + model)))
                    .limits(LIMITS).option(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS, "1").build());
        }
    }
}
