package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A provider that is the CLI's own login reaches the adapter as such, and the meter does not proxy it. */
class CliLoginProviderTest {
    @TempDir Path tmp;

    private static final ProviderResolver OWN_LOGIN = new ProviderResolver() {
        @Override
        public Optional<ResolvedProvider> resolve(String provider, String model) {
            return "own".equals(provider) ? Optional.of(ResolvedProvider.cliLogin("own", model != null ? model : "m1"))
                    : Optional.empty();
        }

        @Override
        public Set<String> providerNames() {
            return Set.of("own");
        }
    };

    @Test
    void aCliLoginRunIsNotMeteredSaysSoAndKeepsTheAdaptersFigures() throws Exception {
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build()).providers(OWN_LOGIN).build()) {
            RunRecord rec = r.run(RunSpec.builder(ShellHarness.ID, "own").model("m1").prompt("p")
                    .baseline(repo(tmp.resolve("base"))).option("script", "echo w > w.txt").build());
            assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(rec.meter()).as("nothing was metered").isNull();
            assertThat(rec.resultDir().resolve("requests.jsonl")).doesNotExist();
            assertThat(rec.notes()).anyMatch(n -> n.startsWith("the wire was not metered: provider own is the CLI's own "
                    + "login"));
            JsonNode meta = new ObjectMapper().readTree(rec.metaFile().toFile());
            assertThat(meta.get("meter").isNull()).isTrue();
            assertThat(meta.get("provider").asText()).isEqualTo("own");
            assertThat(Files.readString(rec.metaFile())).doesNotContain("127.0.0.1");
        }
    }
}
