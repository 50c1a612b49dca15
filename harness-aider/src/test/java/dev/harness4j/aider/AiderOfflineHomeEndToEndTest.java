package dev.harness4j.aider;

import dev.harness4j.testkit.OfflineHome;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real aider run with no network beyond loopback and HOME in a fake dir: it completes, reaches
 * nothing off the machine, and leaves every file of HOME ({@code .npm} and {@code .cache}
 * included) as it was.
 */
@RealCli
class AiderOfflineHomeEndToEndTest {
    private static final String KEY = "sk-aider-offline";

    @TempDir
    Path tmp;

    @Test
    void aRunNeedsNoNetworkBeyondTheModelEndpointAndLeavesHomeUntouched() throws Exception {
        Clis.require(new AiderHarness());
        Path baseline = GitRepos.baseline(tmp.resolve("baseline"));
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(KEY);
                OfflineHome offline = new OfflineHome(Files.createDirectories(tmp.resolve("home")))) {
            String model = "aider-offline";
            server.script(model, Scenario.builder().writeFile("offline.txt", "written without a network\n").build());
            ResolvedProvider provider = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI),
                    server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, model);
            Map<String, String> homeBefore = offline.snapshot();

            RunRecord record;
            try (HarnessRunner runner = HarnessRunner.builder()
                    .stateDir(tmp.resolve("state"))
                    .registry(HarnessRegistry.builder().add(new AiderHarness()).build())
                    .providers(resolver(provider))
                    .runnerEnvironment(offline.environment()).environment(offline.trapVariables())
                    .pushBranches(false)
                    .build()) {
                record = runner.run(RunSpec.builder(AiderHarness.ID, provider.name()).model(model)
                        .prompt("Create offline.txt.").baseline(baseline)
                        .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(4))).build());
            }

            String transcript = Files.readString(record.resultDir().resolve("transcript.log"));
            assertThat(record.result().outcome()).as("outcome; transcript:\n%s", transcript)
                    .isEqualTo(Outcome.COMPLETED);
            assertThat(record.changes().files()).containsExactly("offline.txt");
            assertThat(offline.trapped()).as("connections that tried to leave loopback").isEmpty();
            assertThat(offline.snapshot()).as("every path below the fake HOME, .npm and .cache included")
                    .isEqualTo(homeBefore);
        }
    }

    private static ProviderResolver resolver(ResolvedProvider provider) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String name, String requestedModel) {
                return Optional.of(provider);
            }

            @Override
            public Set<String> providerNames() {
                return Set.of(provider.name());
            }
        };
    }
}
