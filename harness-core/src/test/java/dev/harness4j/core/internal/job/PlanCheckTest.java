package dev.harness4j.core.internal.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.job.InvalidJobPlanException;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.PhaseSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
}
