package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trajectory.json of a real {@code aider} run: aider prints nothing structured (and has no tool
 * calls: its edits are blocks in the reply), so the trajectory comes from the wire.
 */
@RealCli
class AiderTrajectoryEndToEndTest {
    private static final String KEY = "sk-test-aider-trajectory";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;

    @Test
    void aRunGetsAWireDerivedTrajectoryWithOneAgentStepPerModelCallAndTheMeteredTotals() throws Exception {
        Clis.require(new AiderHarness());
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(KEY)) {
            server.script("aider-traj", Scenario.builder().writeFile("hello.txt", "hello from aider\n")
                    .usage(1234, 56, 0, 0).build());
            ProviderResolver p = new ProviderResolver() {
                @Override
                public Optional<ResolvedProvider> resolve(String provider, String m) {
                    return Optional.of(new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC),
                            server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, m));
                }

                @Override
                public Set<String> providerNames() {
                    return Set.of("scripted");
                }
            };
            RunRecord r;
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).recordBodies(true)
                    .registry(HarnessRegistry.builder().add(new AiderHarness()).build()).providers(p)
                    .pushBranches(false).build()) {
                r = runner.run(RunSpec.builder(AiderHarness.ID, "scripted").model("aider-traj")
                        .prompt("Create hello.txt with a greeting.").baseline(GitRepos.baseline(tmp.resolve("base")))
                        .option(AiderOptions.STREAM, "false") // streamed, aider asks no usage: tokens unmeasured
                        .limits(dev.harness4j.api.Limits.NONE.withMaxRuntime(Duration.ofMinutes(4))).build());
            }
            String text = Files.readString(r.resultDir().resolve("trajectory.json"));
            assertThat(text).doesNotContain(KEY);
            JsonNode t = JSON.readTree(text);
            assertThat(AtifCheck.violations(t)).as(text).isEmpty();
            assertThat(t.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("wire-bodies");
            assertThat(AtifCheck.agentShape(t)).hasSize(r.meter().modelRequests()).first().isEqualTo("agent results=0");
            assertThat(t.path("steps").get(1).path("message").asText()).contains("hello from aider");
            TokenUsage metered = r.result().tokens();
            assertThat(metered.source()).isEqualTo(TokenUsage.Source.METERED);
            long cacheRead = metered.cacheRead() == null ? 0 : metered.cacheRead();
            long cacheWrite = metered.cacheWrite() == null ? 0 : metered.cacheWrite();
            assertThat(t.path("final_metrics").path("total_prompt_tokens").asLong())
                    .isEqualTo(metered.input() + cacheRead + cacheWrite);
            assertThat(t.path("final_metrics").path("total_completion_tokens").asLong()).isEqualTo(metered.output());
        }
    }
}
