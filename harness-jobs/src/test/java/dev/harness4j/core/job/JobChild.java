package dev.harness4j.core.job;

import dev.harness4j.core.HarnessRunner;
import java.nio.file.Path;

/**
 * A child JVM that runs the 3-phase job of {@link JobCrashRecoveryTest}: {@code JobChild <stateDir>
 * <baseline> <outDir> <jobId>}. Phase b counts its runs in {@code <outDir>/nb}, commits, and
 * sleeps 300 s on its first run (so that the test kills this JVM in the middle of it). With a fifth
 * argument {@code quota}, the job of {@link #quotaPlan}: its first run is rate-limited for 25 s.
 */
public final class JobChild {
    private JobChild() {}

    public static void main(String[] args) {
        Path state = Path.of(args[0]);
        try (HarnessRunner runner = JobTesting.runner(state); JobRunner jobs = JobRunner.builder(runner).build()) {
            JobPlan.Builder plan = args.length > 4 && args[4].equals("quota") ? quotaPlan(Path.of(args[1]), Path.of(args[2]))
                    : plan(Path.of(args[1]), Path.of(args[2]));
            JobStatus s = jobs.run(plan.id(args[3]).build());
            System.out.println("ended " + s.state());
        }
    }

    /**
     * One phase {@code q} that counts its runs in {@code <outDir>/nq}: its first run ends rate-limited
     * until 25 s later (no fallback, a max wait beyond it: the job pauses for the quota), the next
     * one commits.
     */
    static JobPlan.Builder quotaPlan(Path repo, Path out) {
        String q = "n=$(cat " + out.resolve("nq") + " 2>/dev/null || echo 0); echo $((n+1)) > " + out.resolve("nq")
                + "; if [ $n = 0 ]; then echo \"RATE-LIMITED $(( $(date +%s) + 25 ))\"; exit 1; fi; "
                + JobTesting.commits("q.txt", "phase q");
        return JobTesting.plan(repo).maxQuotaWait(java.time.Duration.ofHours(1)).phase(JobTesting.phase("q", q));
    }

    static JobPlan.Builder plan(Path repo, Path out) {
        String b = "n=$(cat " + out.resolve("nb") + " 2>/dev/null || echo 0); echo $((n+1)) > " + out.resolve("nb")
                + "; " + JobTesting.commits("b.txt", "phase b") + "; if [ $n = 0 ]; then sleep 300; fi";
        return JobTesting.plan(repo)
                .phase(JobTesting.phase("a", JobTesting.commits("a.txt", "phase a") + " && echo 'NOTES see a.txt'"))
                .phase(JobTesting.phase("b", b))
                .phase(JobTesting.phase("c", "printf '%s' \"$PROMPT\" > " + out.resolve("prompt-c") + " && "
                        + JobTesting.commits("c.txt", "phase c")));
    }
}
