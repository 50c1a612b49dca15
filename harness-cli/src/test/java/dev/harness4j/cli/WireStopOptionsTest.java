package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.stages.MeterStage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI's wire-stop flags configure the runner's meter; without them it keeps its defaults. */
class WireStopOptionsTest {
    @TempDir Path tmp;

    @CommandLine.Command(name = "t")
    static final class Holder {
        @CommandLine.Mixin WireStopOptions stops = new WireStopOptions();
    }

    private MeterStage meter(String... args) {
        Holder h = new Holder();
        new CommandLine(h).parseArgs(args);
        try (HarnessRunner r = h.stops.apply(HarnessRunner.builder().stateDir(tmp).discoverStages(false)).build()) {
            return r.stage(MeterStage.class).orElseThrow();
        }
    }

    @Test
    void theFlagsSetTheMetersStops() {
        MeterStage m = meter("--stop-after-rate-limits", "3", "--stop-after-server-errors", "2", "--no-stop-on-auth-failure");
        assertThat(m.stopAfterRateLimits()).contains(3);
        assertThat(m.stopAfterServerErrors()).isEqualTo(2);
        assertThat(m.stopOnAuthFailure()).isFalse();
    }

    @Test
    void withoutFlagsTheDefaultsHold() {
        MeterStage m = meter();
        assertThat(m.stopAfterRateLimits()).isEmpty();
        assertThat(m.stopAfterServerErrors()).isEqualTo(5);
        assertThat(m.stopOnAuthFailure()).isTrue();
    }

    @Test
    void benchRunJobRunAndWorkerTakeThem() {
        for (String[] cmd : new String[][] {{"bench", "run", "--help"}, {"job", "run", "--help"}, {"worker", "--help"}}) {
            java.io.StringWriter out = new java.io.StringWriter();
            Harness4j.run(new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()), cmd);
            assertThat(out.toString()).as(String.join(" ", cmd)).contains("--stop-after-server-errors",
                    "--no-stop-on-auth-failure", "--stop-after-rate-limits");
        }
    }
}
