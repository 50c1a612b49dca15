package dev.harness4j.opencode;

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
 * A real opencode run with no network beyond loopback and HOME in a fake dir: it completes,
 * asks nothing of the npm registry (or anything else off the machine), and leaves every file of
 * HOME, {@code .npm} and {@code .cache} included, as it was.
 */
@RealCli
class OpencodeOfflineEndToEndTest {
    private static final String KEY = "sk-opencode-offline";

    @TempDir
    Path tmp;

    @Test
    void aRunNeedsNoNetworkBeyondTheModelEndpointAndLeavesHomeUntouched() throws Exception {
        Clis.require(new OpencodeHarness());
        Path baseline = TestRepos.baseline(tmp.resolve("baseline"));
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(KEY);
                OfflineHome offline = new OfflineHome(Files.createDirectories(tmp.resolve("home")))) {
            String model = "oc-offline";
            server.script(model, Scenario.builder()
                    .writeFile("offline.txt", "written without a network\n").usage(100, 10, 0, 0)
                    .say("Wrote offline.txt.").usage(110, 5, 0, 0)
                    .build());
            ResolvedProvider provider = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI),
                    server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, model);
            Map<String, String> homeBefore = offline.snapshot();

            RunRecord record;
            long t0 = System.nanoTime();
            try (HarnessRunner runner = HarnessRunner.builder()
                    .stateDir(tmp.resolve("state"))
                    .registry(HarnessRegistry.builder().add(new OpencodeHarness()).build())
                    .providers(resolver(provider))
                    .runnerEnvironment(offline.environment()).environment(offline.trapVariables())
                    .build()) {
                record = runner.run(RunSpec.builder(OpencodeHarness.ID, provider.name()).model(model)
                        .prompt("Do the scripted task.").baseline(baseline)
                        .limits(new Limits(Duration.ofSeconds(90), Duration.ofSeconds(150), null)).build());
            }
            long millis = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("opencode offline run: %s in %d ms (runner.run, wall)%n",
                    record.result().outcome().wireName(), millis);

            String transcript = Files.readString(record.resultDir().resolve("transcript.log"));
            assertThat(record.result().outcome()).as("outcome; transcript:\n%s", transcript)
                    .isEqualTo(Outcome.COMPLETED);
            assertThat(record.changes().files()).containsExactly("offline.txt");
            assertThat(offline.trapped()).as("connections that tried to leave loopback (npm registry, proxies)")
                    .isEmpty();
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
