package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.core.stages.SandboxStage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a runner's builder makes its chain: defaults, replacements, user stages, leaving out, refusals. */
class RunnerStagesTest {
    @TempDir Path tmp;

    private static RunStage named(String name, Slot slot) {
        return new RunStage() {
            @Override
            public Slot slot() {
                return slot;
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                return chain.proceed();
            }
        };
    }

    private HarnessRunner.Builder builder() {
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).discoverStages(false);
    }

    @Test
    void theDefaultChainHasTheBuiltInStagesInSlotOrder() {
        try (HarnessRunner r = builder().build()) {
            assertThat(r.stageNames()).containsExactly("record", "workspace", "after-harness", "phase-report", "gateway",
                    "meter", "sandbox", "login-probe", "harness");
        }
    }

    @Test
    void aUserStageSitsJustInsideTheBuiltInOfItsSlotAndAConfiguredBuiltInReplacesTheDefault() {
        MeterStage meter = MeterStage.builder().recordBodies(true).build();
        try (HarnessRunner r = builder().stage(named("mine", Slot.METER)).stage(meter).build()) {
            assertThat(r.stageNames()).containsSubsequence("gateway", "meter", "mine", "sandbox");
            assertThat(r.stage(MeterStage.class)).containsSame(meter);
        }
    }

    @Test
    void leftOutSlotsAreGoneAndTheDeprecatedSwitchesStillWork() {
        try (HarnessRunner r = builder().without(Slot.LOGIN_PROBE).metering(false).sandbox(Sandbox.OFF).build()) {
            assertThat(r.stageNames()).doesNotContain("login-probe", "meter").contains("sandbox");
            assertThat(r.stage(SandboxStage.class).orElseThrow().mode()).isEqualTo(Sandbox.OFF);
        }
        assertThatThrownBy(() -> builder().without(Slot.WORKSPACE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().stage(named("x", Slot.HARNESS))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("terminal slot");
    }

    @Test
    void meteringOffWithAMeterOnlySandboxIsRefusedWithTheFix() {
        assertThatThrownBy(() -> builder().metering(false).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no route to its model").hasMessageContaining("sandboxNetwork(SandboxNetwork.HOST)")
                .hasMessageContaining("sandbox(Sandbox.OFF)");
        builder().metering(false).sandboxNetwork(SandboxNetwork.HOST).build().close();
        builder().without(Slot.METER).stage(SandboxStage.builder().mode(Sandbox.OFF).build()).build().close();
    }
}
