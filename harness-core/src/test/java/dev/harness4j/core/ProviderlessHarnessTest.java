package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.RunSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A harness that needs no provider runs on a runner that knows none; one that needs a provider still does. */
class ProviderlessHarnessTest {
    @TempDir Path tmp;

    /** Runs {@code sh -c} with the run's option "script"; needs a provider or not. */
    private static Harness shell(String id, boolean needsProvider) {
        ShellHarness base = new ShellHarness();
        return new Harness() {
            @Override public String id() { return id; }
            @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            @Override public InstallInfo installInfo() { return base.installInfo(); }
            @Override public boolean needsProvider() { return needsProvider; }
            @Override public Invocation prepare(HarnessContext ctx) {
                return Invocation.builder(ctx.executable(), "-c", ctx.option("script").orElse("true"))
                        .workingDir(ctx.workspace()).env("SEEN_PROVIDER", ctx.provider().name() + "/" + ctx.model()).build();
            }
            @Override public HarnessResult interpret(Execution ex) {
                return HarnessResult.builder(ex.exitedCleanly() ? Outcome.COMPLETED : Outcome.ERROR, ex.context().model())
                        .build();
            }
        };
    }

    @Test
    void aHarnessThatNeedsNoProviderIsGivenNoneResolvedAndIsNotMetered() throws Exception {
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state")).discoverProviders(false)
                .registry(HarnessRegistry.builder().add(shell("ref", false)).add(shell("agent", true)).build()).build()) {
            Path base = repo(tmp.resolve("base"));
            RunRecord rec = r.run(RunSpec.builder("ref", "none").prompt("p").baseline(base)
                    .option("script", "echo \"$SEEN_PROVIDER\" > seen.txt").build());

            assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(rec.providerName()).isEqualTo("none");
            assertThat(rec.resolvedModel()).isEqualTo(HarnessRunner.NO_MODEL);
            assertThat(rec.meter()).as("never metered").isNull();
            assertThat(rec.notes()).as("no note about a CLI login or its network").isEmpty();
            com.fasterxml.jackson.databind.JsonNode meta = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(rec.metaFile().toFile());
            assertThat(meta.path("credential").path("held_by").asText()).isEqualTo("none");
            assertThat(java.nio.file.Files.readString(rec.resultDir().resolve("diff.patch"))).contains("+none/none");
            assertThat(Preflight.of(r).check("ref", "none", null).problems()).isEmpty();

            assertThatThrownBy(() -> r.run(RunSpec.builder("agent", "none").prompt("p").baseline(base).build()))
                    .isInstanceOf(ProviderNotResolvableException.class);
            assertThat(Preflight.of(r).check("agent", "none", null).problems()).singleElement().asString().contains("none");
        }
    }
}
