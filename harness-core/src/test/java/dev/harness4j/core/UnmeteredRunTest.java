package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.util.Map;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without harness-meter on the class path (core's own tests never have it) a run with the default
 * stages proceeds unmetered and says so: no metered figures, tokens unmeasured (never 0), a note.
 */
class UnmeteredRunTest {
    @TempDir Path tmp;

    @Test
    void withoutHarnessMeterARunIsUnmeteredAndItsRecordSaysWhatToAdd() throws Exception {
        assertThat(getClass().getClassLoader().getResource("META-INF/services/dev.harness4j.core.stages.WireStages"))
                .as("harness-meter is not on core's test class path").isNull();
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            assertThat(r.stageNames()).contains("gateway", "meter");
            for (int i = 0; i < 2; i++) { // every run says it, not only the first
                RunRecord rec = r.run(RunSpec.builder(ShellHarness.ID, "local").model("m1").prompt("p")
                        .baseline(repo(tmp.resolve("base-" + i))).option("script", "echo w > w.txt").build());
                assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
                assertThat(rec.meter()).as("nothing was metered").isNull();
                assertThat(rec.result().tokens().isMeasured()).as("tokens absent, never 0").isFalse();
                assertThat(rec.result().cost()).isNull();
                assertThat(rec.resultDir().resolve("requests.jsonl")).doesNotExist();
                assertThat(rec.notes()).contains("unmetered: harness-meter is not on the class path; add "
                        + "dev.harness4j:harness-meter to measure tokens and cost on the wire");
                JsonNode meta = new ObjectMapper().readTree(rec.metaFile().toFile());
                assertThat(meta.get("meter").isNull()).isTrue();
                assertThat(meta.toString()).contains("unmetered: harness-meter is not on the class path");
            }
        }
    }

    @Test
    void withoutHarnessMeterARunOnAGatewaySaysItsSpendWasNotSettled() throws Exception {
        ProviderConfig litellm = ProviderConfig.builder("litellm").apiStyles(ApiStyle.OPENAI)
                .baseUrl("http://127.0.0.1:9").keyOptional().defaultModel("m1")
                .gateway(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY")).build();
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(Providers.builder().add(litellm).environment(Map.of("LITELLM_MASTER_KEY", "sk-master"))
                        .build()).build()) {
            RunRecord rec = r.run(RunSpec.builder(ShellHarness.ID, "litellm").model("m1").prompt("p")
                    .baseline(repo(tmp.resolve("base"))).option("script", "echo w > w.txt").build());
            assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(rec.result().tokens().isMeasured()).isFalse();
            assertThat(rec.notes()).anyMatch(n -> n.startsWith("gateway: spend not settled: harness-meter is not on "
                    + "the class path; add dev.harness4j:harness-meter"))
                    .anyMatch(n -> n.startsWith("unmetered: harness-meter is not on the class path"));
            JsonNode meta = new ObjectMapper().readTree(rec.metaFile().toFile());
            assertThat(meta.has("gateway")).as("nothing was settled").isFalse();
        }
    }
}
