package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.RunMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of the JVM running a job in the middle of phase b; the job resumed in another JVM. */
class JobCrashRecoveryTest {
    /** Job names (so run ids and markers) of this JVM only: another build's run of this test kills its own. */
    private static final String U = "-" + ProcessHandle.current().pid();

    @TempDir
    Path tmp;

    @Test
    void aJobKilledMidPhaseResumesInAnotherJvmRunningThatPhaseOnceMoreAndNothingTwice() throws Exception {
        Path repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path state = tmp.resolve("state");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                JobChild.class.getName(), state.toString(), repo.toString(), out.toString(), "crashy" + U)
                .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            String firstRunOfB = "crashy" + U + ".b.1";
            while (RunMarker.find(firstRunOfB).isEmpty() || !Files.exists(out.resolve("nb"))) {
                assertThat(child.isAlive()).as("the child died early: " + log()).isTrue();
                assertThat(System.nanoTime()).as("phase b never started: " + log()).isLessThan(deadline);
                Thread.sleep(50);
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(RunMarker.find("crashy" + U + ".b.1")).as("the sleeping agent outlives its JVM").isNotEmpty();

        try (HarnessRunner runner = JobTesting.runner(state); JobRunner jobs = JobRunner.builder(runner).build()) {
            JobStatus before = jobs.status("crashy" + U);
            assertThat(before.state()).isEqualTo(JobState.RUNNING);
            assertThat(before.phase("b").state()).isEqualTo(PhaseState.RUNNING);

            JobStatus s = jobs.resume("crashy" + U);

            assertThat(s.state()).as(log()).isEqualTo(JobState.COMPLETED);
            assertThat(RunMarker.find("crashy" + U + ".b.1")).as("the old run's processes were killed").isEmpty();
            assertThat(state.resolve("runs/crashy" + U + ".b.1")).doesNotExist();
            assertThat(Files.readString(out.resolve("nb")).trim()).as("phase b ran once more").isEqualTo("2");
            assertThat(s.phase("a").runIds()).hasSize(1);
            assertThat(s.phase("b").runIds()).containsExactly("crashy" + U + ".b.1", "crashy" + U + ".b.2");
            assertThat(s.phase("c").runIds()).hasSize(1);
            assertThat(Files.readString(out.resolve("prompt-c"))).contains("see a.txt"); // notes survived the crash
            assertThat(List.of(GitFixture.git(s.repository(), "log", "--reverse", "--format=%s", s.branch())
                    .strip().split("\n"))).containsExactly("initial", "phase a", "phase b", "phase c");
            assertThat(Files.readAllLines(s.dir().resolve("events.jsonl")))
                    .anyMatch(l -> l.contains("\"phase-reset\"") && l.contains("crashy" + U + ".b.1")
                            && l.contains("surviving process"));
        }
    }

    @Test
    void aPauseFromAnotherProcessStopsThePhaseInTheJvmRunningItAndACancelOfACrashedJobSweepsItsRun() throws Exception {
        Path repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path state = tmp.resolve("state");
        Process child = startChild(state, repo, out, "remote" + U);
        try {
            awaitPhaseB(child, out, "remote" + U + ".b.1");
            try (HarnessRunner runner = JobTesting.runner(state); JobRunner jobs = JobRunner.builder(runner).build()) {
                jobs.pause("remote" + U); // another process runs it: a request its poller takes
                assertThat(child.waitFor(120, TimeUnit.SECONDS)).as(log()).isTrue();
                assertThat(log()).contains("ended PAUSED");
                assertThat(jobs.status("remote" + U).phase("b").state()).isEqualTo(PhaseState.PENDING);
                assertThat(RunMarker.find("remote" + U + ".b.1")).isEmpty();
            }
        } finally {
            child.destroyForcibly();
        }

        Files.delete(out.resolve("nb"));
        Process second = startChild(state, repo, out, "crashed" + U);
        try {
            awaitPhaseB(second, out, "crashed" + U + ".b.1");
            second.destroyForcibly();
            assertThat(second.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            second.destroyForcibly();
        }
        try (HarnessRunner runner = JobTesting.runner(state); JobRunner jobs = JobRunner.builder(runner).build()) {
            jobs.cancel("crashed" + U); // nobody runs it: applied here, its dead run swept
            JobStatus s = jobs.status("crashed" + U);
            assertThat(s.state()).isEqualTo(JobState.CANCELLED);
            assertThat(s.phases()).extracting(PhaseStatus::state)
                    .containsExactly(PhaseState.COMPLETED, PhaseState.SKIPPED, PhaseState.SKIPPED);
            assertThat(RunMarker.find("crashed" + U + ".b.1")).isEmpty();
            assertThat(state.resolve("runs/crashed" + U + ".b.1")).doesNotExist();
        }
    }

    @Test
    void aJobPausedForQuotaWhoseJvmDiesIsResumedInAnotherJvmAndWaitsForTheReset() throws Exception {
        Path repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path state = tmp.resolve("state");
        Process child = startChild(state, repo, out, "quota", "quota");
        java.time.Instant resumeAt;
        try (HarnessRunner runner = JobTesting.runner(state); JobRunner jobs = JobRunner.builder(runner).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(state.resolve("jobs/quota/checkpoint.json"))
                    || jobs.status("quota").state() != JobState.PAUSED_QUOTA) {
                assertThat(child.isAlive()).as("the child died early: " + log()).isTrue();
                assertThat(System.nanoTime()).as("the job never paused for its quota: " + log()).isLessThan(deadline);
                Thread.sleep(50);
            }
            child.destroyForcibly(); // SIGKILL while it waits for the reset
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            JobStatus before = jobs.status("quota");
            resumeAt = before.resumeAt();
            assertThat(before.state()).isEqualTo(JobState.PAUSED_QUOTA);
            assertThat(before.phase("q").state()).isEqualTo(PhaseState.PENDING);
            assertThat(resumeAt).as("the reset is still ahead when the new JVM resumes").isAfter(java.time.Instant.now());

            JobStatus s = jobs.resume("quota");

            assertThat(s.state()).as(log()).isEqualTo(JobState.COMPLETED);
            assertThat(java.time.Instant.now()).isAfterOrEqualTo(resumeAt);
            assertThat(Files.readString(out.resolve("nq")).trim()).as("one rate-limited run, one after the reset")
                    .isEqualTo("2");
            assertThat(s.phase("q").attempts()).as("the quota consumed no attempt").isZero();
            assertThat(s.phase("q").runIds()).containsExactly("quota.q.1", "quota.q.2");
            assertThat(List.of(GitFixture.git(s.repository(), "log", "--reverse", "--format=%s", s.branch())
                    .strip().split("\n"))).containsExactly("initial", "phase q");
            // the second run started no earlier than the reset the dead JVM had booked
            com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
            java.time.Instant secondStart = Files.readAllLines(s.dir().resolve("events.jsonl")).stream().map(l -> {
                try {
                    return m.readTree(l);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).filter(n -> n.path("kind").asText().equals("phase-state") && n.path("state").asText().equals("running")
                    && n.path("run_id").asText().equals("quota.q.2"))
                    .map(n -> java.time.Instant.parse(n.path("at").asText())).findFirst().orElseThrow();
            assertThat(secondStart).isAfterOrEqualTo(resumeAt);
            assertThat(Files.readString(s.dir().resolve("events.jsonl"))).contains("\"quota-wait\"");
        } finally {
            child.destroyForcibly();
        }
    }

    private Process startChild(Path state, Path repo, Path out, String jobId, String... mode) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                JobChild.class.getName(), state.toString(), repo.toString(), out.toString(), jobId));
        cmd.addAll(List.of(mode));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
    }

    private void awaitPhaseB(Process child, Path out, String runId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (RunMarker.find(runId).isEmpty() || !Files.exists(out.resolve("nb"))) {
            assertThat(child.isAlive()).as("the child died early: " + log()).isTrue();
            assertThat(System.nanoTime()).as("phase b never started: " + log()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private String log() {
        try {
            return Files.readString(tmp.resolve("child.log"));
        } catch (Exception e) {
            return "(no log)";
        }
    }
}
