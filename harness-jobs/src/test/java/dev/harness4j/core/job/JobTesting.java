package dev.harness4j.core.job;

import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Path;

/** The runner jobs' tests share: {@link JobHarness}, providers {@code local} and {@code backup}, no meter, no sandbox. */
final class JobTesting {
    private JobTesting() {}

    static HarnessRunner runner(Path state) {
        return builder(state).build();
    }

    static HarnessRunner.Builder builder(Path state) {
        return HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new JobHarness()).build())
                .providers(JobHarness.providers()).metering(false).sandbox(Sandbox.OFF).loginProbe(false);
    }

    static JobPlan.Builder plan(Path repo) {
        return JobPlan.builder(repo).harness(JobHarness.ID).provider("local");
    }

    static PhaseSpec phase(String id, String script) {
        return PhaseSpec.builder(id, "do phase " + id).option("script", script).build();
    }

    /** A script that writes a file and commits it. */
    static String commits(String file, String message) {
        return "echo " + file + " > " + file + " && git add " + file + " && git commit -qm '" + message + "'";
    }
}
