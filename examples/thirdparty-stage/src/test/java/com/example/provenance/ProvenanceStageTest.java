package com.example.provenance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example stage is found through ServiceLoader by a plain runner and writes its section. */
class ProvenanceStageTest {
    @TempDir Path tmp;

    private static final ProviderResolver LOCAL = new ProviderResolver() {
        @Override
        public Optional<ResolvedProvider> resolve(String provider, String model) {
            return provider.equals("local") ? Optional.of(new ResolvedProvider("local", EnumSet.of(ApiStyle.OPENAI),
                    URI.create("http://127.0.0.1:9"), null, AuthScheme.API_KEY, "m")) : Optional.empty();
        }

        @Override
        public Set<String> providerNames() {
            return Set.of("local");
        }
    };

    private RunRecord run(HarnessRunner.Builder builder) throws Exception {
        Path repo = GitRepos.withReadme(tmp.resolve("repo-" + System.nanoTime()));
        try (HarnessRunner runner = builder.stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new FakeHarness()).build()).providers(LOCAL).build()) {
            return runner.run(FakeScript.builder().writeFile("a.txt", "a\n").build()
                    .applyTo(RunSpec.builder(FakeHarness.ID, "local")).prompt("write a").baseline(repo).build());
        }
    }

    @Test
    void aRunnerOnTheClassPathFindsTheStageAndEveryRunCarriesItsSection() throws Exception {
        RunRecord r = run(HarnessRunner.builder());

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        JsonNode meta = new ObjectMapper().readTree(r.resultDir().resolve("meta.json").toFile());
        assertThat(meta.path("provenance").path("host").asText()).isNotBlank();
        assertThat(meta.path("provenance").path("harness").asText()).isEqualTo("fake");
        assertThat(r.stageTimes()).containsKey("ProvenanceStage");
        assertThat(r.stageTimes().keySet()).containsSubsequence("record", "ProvenanceStage", "workspace");
    }

    @Test
    void aRunnerBuiltWithoutDiscoveryDoesNotRunIt() throws Exception {
        RunRecord r = run(HarnessRunner.builder().discoverStages(false));

        JsonNode meta = new ObjectMapper().readTree(r.resultDir().resolve("meta.json").toFile());
        assertThat(meta.has("provenance")).isFalse();
        assertThat(r.stageTimes()).doesNotContainKey("ProvenanceStage");
    }
}
