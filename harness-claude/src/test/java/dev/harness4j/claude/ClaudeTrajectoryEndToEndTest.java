package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import dev.harness4j.testkit.trajectory.AtifCheck;
import dev.harness4j.testkit.trajectory.WireOnly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trajectory.json of a real {@code claude} run on a scripted two-tool-call scenario: from its
 * stream-json events, and — through a wrapper that reports nothing structured — from the wire.
 */
@RealCli
class ClaudeTrajectoryEndToEndTest {
    private static final String KEY = "sk-test-claude-trajectory";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private RunRecord run(String harness, String model) throws Exception {
        server.script(model, Scenario.builder()
                .shell("ls").usage(100, 10, 0, 40)
                .writeFile("hello.txt", "hello\n").usage(150, 20, 30, 0)
                .say("Done.").usage(200, 5, 60, 0).build());
        ProviderResolver p = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String m) {
                return Optional.of(new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI),
                        server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, m));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("scripted");
            }
        };
        Path baseline = GitRepos.withReadme(tmp.resolve("baseline-" + harness));
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state-" + harness)).recordBodies(true)
                .registry(HarnessRegistry.builder().add(new ClaudeCodeHarness()).add(new WireOnly(new ClaudeCodeHarness())).build())
                .providers(p).build()) {
            return runner.run(RunSpec.builder(harness, "scripted").model(model).prompt("Do the scripted task.")
                    .baseline(baseline).limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)))
                    .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build());
        }
    }

    private static JsonNode checked(RunRecord r) throws Exception {
        Path file = r.resultDir().resolve("trajectory.json");
        String text = Files.readString(file);
        assertThat(text).doesNotContain(KEY);
        JsonNode t = JSON.readTree(text);
        assertThat(AtifCheck.violations(t)).as(text).isEmpty();
        TokenUsage metered = r.result().tokens();
        assertThat(metered.source()).isEqualTo(TokenUsage.Source.METERED);
        JsonNode fm = t.path("final_metrics");
        assertThat(fm.path("total_prompt_tokens").asLong())
                .isEqualTo(metered.input() + metered.cacheRead() + metered.cacheWrite());
        assertThat(fm.path("total_completion_tokens").asLong()).isEqualTo(metered.output()).isEqualTo(35);
        assertThat(fm.path("total_cached_tokens").asLong()).isEqualTo(metered.cacheRead()).isEqualTo(90);
        return t;
    }

    @Test
    void theSameTwoToolCallScenarioGivesTheSameStepsFromTheEventsAndFromTheWire() throws Exception {
        RunRecord own = run(ClaudeCodeHarness.ID, "traj-events");
        JsonNode fromEvents = checked(own);
        assertThat(fromEvents.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("adapter");
        assertThat(AtifCheck.agentShape(fromEvents)).containsExactly("agent Bash results=1", "agent Write results=1",
                "agent results=0");

        RunRecord wire = run(ClaudeCodeHarness.ID + WireOnly.SUFFIX, "traj-wire");
        JsonNode fromWire = checked(wire);
        assertThat(fromWire.path("extra").path("harness4j").path("trajectory_source").asText())
                .isEqualTo("wire-bodies");
        assertThat(AtifCheck.agentShape(fromWire)).isEqualTo(AtifCheck.agentShape(fromEvents));
        JsonNode last = fromWire.path("steps").get(fromWire.path("steps").size() - 1);
        assertThat(last.path("message").asText()).isEqualTo("Done.");
        assertThat(last.path("metrics").path("completion_tokens").asLong()).isEqualTo(5);
    }
}
