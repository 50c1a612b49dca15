package dev.harness4j.codex;

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
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import dev.harness4j.testkit.trajectory.AtifCheck;
import dev.harness4j.testkit.trajectory.WireOnly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trajectory.json of a real {@code codex} run with two shell calls: from its JSON events (which
 * mark items, not model calls) and, through a wrapper that reports nothing, from the wire
 * (Responses API): both have the two calls with their outputs.
 */
@RealCli
class CodexTrajectoryEndToEndTest {
    private static final String KEY = "sk-codex-trajectory-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScriptedModelServer server;

    @TempDir Path tmp;

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

    private JsonNode run(String harness, String model) throws Exception {
        Clis.require(new CodexHarness());
        server.script(model, Scenario.builder()
                .shell("printf 'a\\n' > a.txt").usage(100, 10, 0, 0)
                .shell("printf 'b\\n' > b.txt").usage(150, 20, 30, 0)
                .say("Done.").usage(200, 5, 60, 0).build());
        ResolvedProvider provider = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), server.baseUrl(),
                Secret.of(KEY), AuthScheme.BEARER, model);
        ProviderResolver p = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String name, String m) {
                return Optional.of(provider);
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("scripted");
            }
        };
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", Files.createDirectories(tmp.resolve("home-" + harness)).toString());
        Path state = Path.of("target", "codex-trajectory", UUID.randomUUID().toString()).toAbsolutePath();
        RunRecord r;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state).runnerEnvironment(env).recordBodies(true)
                .registry(HarnessRegistry.builder().add(new CodexHarness()).add(new WireOnly(new CodexHarness())).build())
                .providers(p).build()) {
            r = runner.run(RunSpec.builder(harness, "scripted").model(model).prompt("Do the scripted task.")
                    .baseline(GitRepos.withReadme(tmp.resolve("baseline-" + harness)))
                    .limits(new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null)).build());
        }
        String text = Files.readString(r.resultDir().resolve("trajectory.json"));
        assertThat(text).doesNotContain(KEY);
        JsonNode t = JSON.readTree(text);
        assertThat(AtifCheck.violations(t)).as(text).isEmpty();
        assertThat(r.result().tokens().output()).isEqualTo(35);
        assertThat(t.path("final_metrics").path("total_completion_tokens").asLong()).isEqualTo(35);
        return t;
    }

    private static long calls(JsonNode t) {
        long n = 0;
        for (JsonNode s : t.path("steps")) {
            n += s.path("tool_calls").size();
            assertThat(s.path("observation").path("results").size()).isEqualTo(s.path("tool_calls").size());
        }
        return n;
    }

    @Test
    void bothSourcesShowTheTwoShellCallsWithTheirResults() throws Exception {
        JsonNode fromEvents = run(CodexHarness.ID, "codex-traj-events");
        assertThat(fromEvents.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("adapter");
        assertThat(calls(fromEvents)).isEqualTo(2);
        assertThat(fromEvents.toString()).contains("command_execution");

        JsonNode fromWire = run(CodexHarness.ID + WireOnly.SUFFIX, "codex-traj-wire");
        assertThat(fromWire.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("wire-bodies");
        assertThat(calls(fromWire)).isEqualTo(2);
        assertThat(AtifCheck.agentShape(fromWire)).hasSize(3);
    }
}
