package dev.harness4j.core.stages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.run.ChainFixture;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.run.WorkspaceStage;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sandbox stage between a fake meter (an outer stage publishing a port) and a terminal fake. */
class SandboxStageTest {
    @TempDir Path tmp;
    private ChainFixture fixture;
    private final AtomicReference<Confinement> seen = new AtomicReference<>();

    @BeforeEach
    void setUp() {
        fixture = new ChainFixture(tmp);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** Publishes a meter port like the meter stage. */
    private static RunStage meterPort(int port) {
        return new RunStage() {
            @Override
            public Slot slot() {
                return Slot.METER;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                chain.store().put(RunKeys.METER_PORT, port);
                return chain.proceed();
            }
        };
    }

    /** A terminal that saw the confinement and "started" a process (so the section is written). */
    private RunStage terminal() {
        return new RunStage() {
            @Override
            public Slot slot() {
                return Slot.HARNESS;
            }

            @Override
            public RunOutcome run(RunChain chain) {
                seen.set(chain.store().get(CoreKeys.CONFINEMENT).orElse(null));
                return chain.outcome().process(new dev.harness4j.core.process.ProcessOutcome(0,
                        new dev.harness4j.api.Termination(dev.harness4j.api.Termination.Kind.EXITED, null),
                        java.time.Instant.now(), java.time.Instant.now(), 1))
                        .result(HarnessResult.builder(Outcome.COMPLETED, "m").build());
            }
        };
    }

    @Test
    void offPublishesNoConfinementAndSaysSo() throws Exception {
        var ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meterPort(4242),
                SandboxStage.builder().mode(Sandbox.OFF).build(), terminal()));

        assertThat(seen.get()).isNull();
        assertThat(ran.outcome().sections().get("sandbox")).isEqualTo(Map.of("setting", "off", "mode", "off"));
    }

    @Test
    void whereBubblewrapWorksTheRunIsConfinedWithTheMetersPortRelayed() throws Exception {
        SandboxStage stage = SandboxStage.builder().build();
        assumeTrue(stage.problem(true, null).isEmpty(), () -> "bubblewrap cannot confine here: "
                + stage.problem(true, null).orElse(""));
        try (stage) {
            var ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meterPort(4242), stage, terminal()));

            Confinement c = seen.get();
            assertThat(c).isNotNull();
            assertThat(c.network()).isEqualTo(SandboxNetwork.METER_ONLY);
            assertThat(c.meterPort()).isEqualTo(4242);
            assertThat(c.writable()).contains(ran.store().require(RunKeys.WORKSPACE));
            @SuppressWarnings("unchecked")
            Map<String, Object> section = (Map<String, Object>) ran.outcome().sections().get("sandbox");
            assertThat(section).containsEntry("mode", "bubblewrap").containsEntry("network", "meter-only");
        }
    }

    @Test
    void requiredRefusesInPreflightWhenBubblewrapCannotRunAndNothingIsMade() throws Exception {
        Path missing = tmp.resolve("no-bwrap");
        SandboxStage stage = SandboxStage.builder().mode(Sandbox.REQUIRED).bwrap(missing).build();

        assertThatThrownBy(() -> fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), stage, terminal())))
                .isInstanceOf(HarnessException.class).hasMessageContaining("REQUIRED")
                .hasMessageContaining(Bubblewrap.INSTALL_HINT.substring(0, 20));
        assertThat(Files.list(tmp.resolve("state").resolve("runs"))).isEmpty();
    }
}
