package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCheckTest {
    private static JobPlan.Builder plan() {
        return JobPlan.builder(Path.of("/repo")).harness("h").provider("p");
    }

    @Test
    void aCycleAnUnknownDependencyAndADuplicateAreAllListedInOneException() {
        assertThatThrownBy(() -> plan()
                .phase(PhaseSpec.builder("a", "x").dependsOn("c").build())
                .phase(PhaseSpec.builder("b", "x").dependsOn("a").build())
                .phase(PhaseSpec.builder("c", "x").dependsOn("b").build())
                .phase(PhaseSpec.builder("d", "x").dependsOn("ghost").build())
                .phase(PhaseSpec.builder("d", "x").build())
                .phase(PhaseSpec.builder("e", "x").dependsOn("e").build())
                .build())
                .isInstanceOf(InvalidJobPlanException.class)
                .satisfies(e -> assertThat(((InvalidJobPlanException) e).problems()).hasSize(4))
                .hasMessageContaining("cycle: a -> c -> b -> a")
                .hasMessageContaining("unknown phase 'ghost'")
                .hasMessageContaining("'d' is used twice")
                .hasMessageContaining("e depends on itself");
    }

    @Test
    void noPhasesNoHarnessAndABadIdAreRefused() {
        assertThatThrownBy(() -> JobPlan.builder(Path.of("/r")).build()).isInstanceOf(InvalidJobPlanException.class)
                .hasMessageContaining("no phases");
        assertThatThrownBy(() -> JobPlan.builder(Path.of("/r")).phase("../x", "p").build())
                .isInstanceOf(InvalidJobPlanException.class)
                .satisfies(e -> assertThat(((InvalidJobPlanException) e).problems()).hasSize(3));
    }

    @Test
    void orderedPlansRunAsGivenAndGraphsInDependencyOrder() {
        assertThat(plan().phase("z", "1").phase("a", "2").phase("m", "3").build().runOrder())
                .extracting(PhaseSpec::id).containsExactly("z", "a", "m");
        assertThat(plan().phase(PhaseSpec.builder("c", "x").dependsOn("b").build())
                .phase(PhaseSpec.builder("b", "x").dependsOn("a").build())
                .phase(PhaseSpec.builder("a", "x").build()).build().runOrder())
                .extracting(PhaseSpec::id).containsExactly("a", "b", "c");
    }

    @Test
    void aPlanFileWithUnknownFieldsIsRefusedWithEveryProblem() throws Exception {
        var json = new ObjectMapper().readTree("{\"baseline\":\"repo\",\"harness\":\"h\",\"provider\":\"p\","
                + "\"colour\":\"red\",\"phases\":[{\"id\":\"a\",\"prompt\":\"x\",\"retries\":3},"
                + "{\"id\":\"b\",\"prompt\":\"y\",\"depends_on\":[\"zz\"]}]}");
        assertThatThrownBy(() -> PlanJson.read(json, Path.of("/plans")))
                .isInstanceOf(InvalidJobPlanException.class)
                .hasMessageContaining("unknown field \"colour\"").hasMessageContaining("unknown field \"retries\"");
        var good = new ObjectMapper().readTree("{\"baseline\":\"repo\",\"harness\":\"h\",\"provider\":\"p\","
                + "\"phases\":[{\"id\":\"a\",\"prompt\":\"x\",\"fallbacks\":[{\"provider\":\"q\"}],"
                + "\"limits\":{\"max_runtime_seconds\":60,\"max_tokens\":5000,\"max_cost_usd\":1.5,"
                + "\"max_model_requests\":9}}]}");
        JobPlan p = PlanJson.read(good, Path.of("/plans"));
        assertThat(p.baseline()).isEqualTo(Path.of("/plans/repo"));
        assertThat(p.phase("a").limits().maxTokens()).isEqualTo(5000L); // budgets survive a checkpoint too
        assertThat(p.phase("a").limits().maxCostUsd()).isEqualByComparingTo("1.5");
        assertThat(p.phase("a").limits().maxModelRequests()).isEqualTo(9);
        assertThat(PlanJson.read(PlanJson.write(p), Path.of("/"))).isEqualTo(p);
    }

    /** An adapter that runs only on OpenAI-style endpoints: refuses anything else through unsupported. */
    private static final class OpenAiOnly implements Harness {
        @Override public String id() { return "openai-only"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo 1"), "apt-get install dash"); }
        @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException("never started"); }
        @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }

        @Override
        public Optional<String> unsupported(ResolvedProvider p) {
            return p.serves(ApiStyle.OPENAI) ? Optional.empty() : Optional.of("openai-only speaks OpenAI chat, but provider '"
                    + p.name() + "' serves " + p.apiStyles() + "; pick a provider that serves OPENAI");
        }
    }

    @Test
    void aPhaseOrFallbackOnAProviderItsHarnessCannotRunOnIsRefusedBeforeAnythingIsWritten(@TempDir Path tmp) {
        Providers providers = Providers.builder().environment(Map.of()).add(
                ProviderConfig.builder("openai").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:2").keyOptional()
                        .models("m-1").defaultModel("m-1").build(),
                ProviderConfig.builder("anthropic").apiStyles(ApiStyle.ANTHROPIC).baseUrl("http://127.0.0.1:3")
                        .keyOptional().defaultModel("claude-x").build()).build();
        Path repo = dev.harness4j.core.GitFixture.repo(tmp.resolve("repo"));
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new OpenAiOnly()).build()).providers(providers).build();
                JobRunner jobs = JobRunner.builder(runner).build()) {
            JobPlan plan = JobPlan.builder(repo).harness("openai-only").provider("openai")
                    .phase(PhaseSpec.builder("design", "x").provider("anthropic").build())
                    .phase(PhaseSpec.builder("build", "y").model("m-9").fallback("anthropic", null).build())
                    .phase(PhaseSpec.builder("test", "z").build())
                    .build();

            Preflight.Findings f = PlanCheck.against(plan, Preflight.of(runner));
            assertThat(f.problems()).containsExactly(
                    "phase design: openai-only × anthropic: openai-only speaks OpenAI chat, but provider 'anthropic' "
                            + "serves [ANTHROPIC]; pick a provider that serves OPENAI",
                    "phase build: provider 'openai' does not list model 'm-9' in its catalogue (1 models: m-1): pick "
                            + "one of those, or, if the provider serves it, refresh the catalogue (harness4j providers "
                            + "refresh openai) or add it to the provider's models",
                    "phase build's fallback anthropic: openai-only × anthropic: openai-only speaks OpenAI chat, but "
                            + "provider 'anthropic' serves [ANTHROPIC]; pick a provider that serves OPENAI");
            assertThat(f.warnings()).as("anthropic lists no catalogue; the same warning once for two phases")
                    .containsExactly(Preflight.unchecked("anthropic", List.of("claude-x")),
                            Preflight.unchecked("anthropic", List.of("m-9")));
            assertThatThrownBy(() -> jobs.run(plan)).isInstanceOf(InvalidJobPlanException.class)
                    .satisfies(e -> assertThat(((InvalidJobPlanException) e).problems()).isEqualTo(f.problems()));
        }
        assertThat(tmp.resolve("state/jobs")).as("nothing written").doesNotExist();
    }
}
