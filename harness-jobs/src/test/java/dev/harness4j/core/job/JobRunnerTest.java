package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.RunMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRunnerTest {
    @TempDir
    Path tmp;
    Path repo;
    Path out;
    HarnessRunner runner;
    JobRunner jobs;
    final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        out = Files.createDirectories(tmp.resolve("out"));
        runner = JobTesting.runner(tmp.resolve("state"));
        jobs = JobRunner.builder(runner).listener(events::add).build();
    }

    @AfterEach
    void tearDown() {
        jobs.close();
        runner.close();
    }

    private List<String> history(JobStatus s) {
        return List.of(GitFixture.git(s.repository(), "log", "--reverse", "--format=%s", s.branch()).strip().split("\n"));
    }

    @Test
    void threePhasesCarryNotesForwardCommitOnceAndWriteASummary() throws Exception {
        JobStatus s = jobs.run(JobTesting.plan(repo).id("three")
                .phase(JobTesting.phase("a", JobTesting.commits("a.txt", "phase a") + " && echo 'NOTES a.txt holds the answer'"))
                .phase(JobTesting.phase("b", "printf '%s' \"$PROMPT\" > " + out.resolve("prompt-b") + " && "
                        + JobTesting.commits("b.txt", "phase b")))
                .phase(JobTesting.phase("c", "printf '%s' \"$PROMPT\" > " + out.resolve("prompt-c") + " && echo c > c.txt"))
                .build());

        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phases()).extracting(PhaseStatus::state).containsOnly(PhaseState.COMPLETED);
        assertThat(Files.readString(out.resolve("prompt-b"))).contains("a.txt holds the answer").contains("do phase b");
        assertThat(Files.readString(out.resolve("prompt-c"))).contains("a.txt holds the answer"); // ordered: all before
        assertThat(s.phase("a").nextPhaseNotes()).isEqualTo("a.txt holds the answer");
        assertThat(history(s)).containsExactly("initial", "phase a", "phase b",
                "phase c: work the agent left uncommitted (committed by harness4j)");
        assertThat(s.head()).isEqualTo(s.phase("c").commit());
        assertThat(GitFixture.git(repo, "log", "--format=%s").strip()).isEqualTo("initial"); // baseline untouched

        JsonNode summary = new ObjectMapper().readTree(s.dir().resolve("summary.json").toFile());
        assertThat(summary.get("state").asText()).isEqualTo("completed");
        assertThat(summary.get("phases")).hasSize(3);
        assertThat(summary.at("/phases/0/report/source").asText()).isEqualTo("self-report");
        assertThat(summary.at("/totals/runs").asInt()).isEqualTo(3);
        assertThat(summary.at("/totals/input_tokens").isMissingNode()).isTrue(); // unmeasured: absent, never 0
        JsonNode checkpoint = new ObjectMapper().readTree(s.dir().resolve("checkpoint.json").toFile());
        assertThat(checkpoint.get("state").asText()).isEqualTo("completed");
        List<String> lines = Files.readAllLines(s.dir().resolve("events.jsonl"));
        assertThat(lines).anyMatch(l -> l.contains("\"leftovers-committed\""));
        assertThat(events).filteredOn(e -> e.kind() == JobEvent.Kind.JOB_STATE).extracting(JobEvent::state)
                .containsExactly("created", "running", "completed");
    }

    @Test
    void aCompletedJobPushesItsBranchToTheBaselinesOriginWhenAsked() throws Exception {
        Path remote = tmp.resolve("remote.git");
        GitFixture.git(tmp, "init", "-q", "--bare", remote.toString());
        GitFixture.git(repo, "remote", "add", "origin", remote.toString());
        JobStatus s = jobs.run(JobTesting.plan(repo).id("pushed").push(true)
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a"))).build());
        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(GitFixture.git(remote, "rev-parse", "refs/heads/harness4j/jobs/pushed").trim()).isEqualTo(s.head());
        assertThat(GitFixture.git(repo, "branch", "--list").strip()).isEqualTo("* main"); // the baseline got nothing
        JsonNode summary = new ObjectMapper().readTree(s.dir().resolve("summary.json").toFile());
        assertThat(summary.get("pushed_as").asText()).isEqualTo("harness4j/jobs/pushed");
    }

    @Test
    void aGraphRunsInDependencyOrderAndNotesFlowOnlyFromAncestors() throws Exception {
        JobStatus s = jobs.run(JobTesting.plan(repo)
                .phase(PhaseSpec.builder("test", "t").dependsOn("build", "docs").option("script",
                        "printf '%s' \"$PROMPT\" > " + out.resolve("prompt-test") + " && " + JobTesting.commits("t", "test")).build())
                .phase(PhaseSpec.builder("build", "b").dependsOn("design").option("script",
                        JobTesting.commits("b", "build") + " && echo 'NOTES from build'").build())
                .phase(PhaseSpec.builder("design", "d").option("script", JobTesting.commits("d", "design")
                        + " && echo 'NOTES from design'").build())
                .phase(PhaseSpec.builder("docs", "x").option("script", JobTesting.commits("x", "docs")
                        + " && echo 'NOTES from docs'").build())
                .build());
        assertThat(s.phases()).extracting(PhaseStatus::id).containsExactly("design", "build", "docs", "test");
        assertThat(history(s)).containsExactly("initial", "design", "build", "docs", "test");
        assertThat(Files.readString(out.resolve("prompt-test"))).contains("from design", "from build", "from docs");
    }

    @Test
    void aRateLimitPausesTheJobUntilTheResetWithoutConsumingAnAttempt() throws Exception {
        String script = "if [ ! -f " + out.resolve("limited") + " ]; then touch " + out.resolve("limited")
                + "; echo \"RATE-LIMITED $(( $(date +%s) + 3 ))\"; exit 1; fi; " + JobTesting.commits("b", "phase b");
        long t0 = System.nanoTime();
        JobStatus s = jobs.run(JobTesting.plan(repo)
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", script)).build());
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phase("b").attempts()).isZero(); // maxAttempts 1, yet it ran twice: no attempt consumed
        assertThat(s.phase("b").runIds()).hasSize(2);
        assertThat(elapsedMs).isGreaterThanOrEqualTo(1500);
        assertThat(events).filteredOn(e -> e.kind() == JobEvent.Kind.JOB_STATE).extracting(JobEvent::state)
                .containsExactly("created", "running", "paused-quota", "running", "completed");
        assertThat(history(s)).containsExactly("initial", "phase a", "phase b");
    }

    @Test
    void aResetBeyondTheMaxWaitSwitchesToTheFallbackProvider() throws Exception {
        String script = "if [ \"$PROVIDER\" = local ]; then echo \"RATE-LIMITED $(( $(date +%s) + 3600 ))\"; exit 1; fi; "
                + "echo b > b && git add b && git commit -qm \"phase b on $PROVIDER\"";
        JobStatus s = jobs.run(JobTesting.plan(repo).maxQuotaWait(Duration.ofSeconds(5))
                .phase(PhaseSpec.builder("b", "b").option("script", script).fallback("backup", "m2").build()).build());
        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phase("b").provider()).isEqualTo("backup");
        assertThat(s.phase("b").model()).isEqualTo("m2");
        assertThat(history(s)).containsExactly("initial", "phase b on backup");
        assertThat(events).filteredOn(e -> e.kind() == JobEvent.Kind.PROVIDER_SWITCH).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("from local", "to backup/m2"));
        assertThat(events).noneMatch(e -> "paused-quota".equals(e.state()));
    }

    @Test
    void aFailingPhaseFailsTheJobAndSkipsTheRest() {
        JobStatus s = jobs.run(JobTesting.plan(repo)
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", "echo broken >&2; exit 3"))
                .phase(JobTesting.phase("c", JobTesting.commits("c", "phase c"))).build());
        assertThat(s.state()).isEqualTo(JobState.FAILED);
        assertThat(s.reason()).contains("phase b failed", "error");
        assertThat(s.phases()).extracting(PhaseStatus::state)
                .containsExactly(PhaseState.COMPLETED, PhaseState.FAILED, PhaseState.SKIPPED);
        assertThat(history(s)).containsExactly("initial", "phase a");
    }

    @Test
    void cancelStopsTheRunningPhaseThroughTheGuardAndLeavesNoProcess() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        JobRunner watched = JobRunner.builder(runner).listener(e -> {
            if (e.kind() == JobEvent.Kind.PHASE_STATE && "running".equals(e.state()) && "b".equals(e.phase())) {
                running.countDown();
            }
        }).build();
        var done = CompletableFuture.supplyAsync(() -> watched.run(JobTesting.plan(repo).id("cancelme")
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", "touch " + out.resolve("b-started") + "; sleep 300"))
                .phase(JobTesting.phase("c", JobTesting.commits("c", "phase c"))).build()));
        assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();
        waitFor(out.resolve("b-started"));
        watched.cancel("cancelme");
        JobStatus s = done.get(60, TimeUnit.SECONDS);
        watched.close();
        assertThat(s.state()).isEqualTo(JobState.CANCELLED);
        assertThat(s.phases()).extracting(PhaseStatus::state)
                .containsExactly(PhaseState.COMPLETED, PhaseState.SKIPPED, PhaseState.SKIPPED);
        assertThat(RunMarker.find(s.phase("b").runIds().get(0))).isEmpty();
        assertThat(Files.exists(s.dir().resolve("summary.json"))).isTrue();
        assertThatThrownBy(() -> jobs.resume("cancelme")).isInstanceOf(JobException.class)
                .hasMessageContaining("cancelled").extracting(e -> ((JobException) e).reason())
                .isEqualTo(JobException.Reason.FINISHED);
    }

    @Test
    void pauseResetsTheRunningPhaseAndResumeRunsItAgainFromTheLastCommit() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        JobRunner watched = JobRunner.builder(runner).listener(e -> {
            if (e.kind() == JobEvent.Kind.PHASE_STATE && "running".equals(e.state()) && "b".equals(e.phase())) {
                running.countDown();
            }
        }).build();
        String b = "n=$(cat " + out.resolve("nb") + " 2>/dev/null || echo 0); echo $((n+1)) > " + out.resolve("nb")
                + "; " + JobTesting.commits("b", "phase b") + "; if [ $n = 0 ]; then sleep 300; fi";
        var done = CompletableFuture.supplyAsync(() -> watched.run(JobTesting.plan(repo).id("pauseme")
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", b))
                .phase(JobTesting.phase("c", JobTesting.commits("c", "phase c"))).build()));
        assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();
        waitFor(out.resolve("nb"));
        watched.pause("pauseme");
        JobStatus paused = done.get(60, TimeUnit.SECONDS);
        assertThat(paused.state()).isEqualTo(JobState.PAUSED);
        assertThat(paused.phase("b").state()).isEqualTo(PhaseState.PENDING);
        JobStatus s = watched.resume("pauseme");
        watched.close();
        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(Files.readString(out.resolve("nb")).trim()).isEqualTo("2");
        assertThat(history(s)).containsExactly("initial", "phase a", "phase b", "phase c");
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> jobs.run(JobTesting.plan(repo)
                .phase(PhaseSpec.builder("a", "x").harness("no-such-harness").build())
                .phase(PhaseSpec.builder("b", "x").provider("nowhere").build()).build()))
                .isInstanceOf(InvalidJobPlanException.class)
                .satisfies(e -> assertThat(((InvalidJobPlanException) e).problems()).hasSize(2))
                .hasMessageContaining("no-such-harness").hasMessageContaining("nowhere");
        assertThatThrownBy(() -> jobs.run(JobTesting.plan(tmp.resolve("nothing-here")).phase("a", "x").build()))
                .isInstanceOf(InvalidJobPlanException.class).hasMessageContaining("no git repository");
        assertThat(tmp.resolve("state/jobs")).doesNotExist();
        assertThatThrownBy(() -> jobs.resume("never-was")).isInstanceOf(JobException.class)
                .hasMessageContaining("no job never-was")
                .extracting(e -> ((JobException) e).reason()).isEqualTo(JobException.Reason.UNKNOWN_JOB);
    }

    @Test
    void theReadmeExamplesPlanIsCheckedAgainstTheRunnerBeforeAnythingRuns() {
        assertThatThrownBy(() -> {
            // the README's "Jobs" snippet; this runner knows neither claude-code nor anthropic
            try (JobRunner jobs = JobRunner.builder(runner).listener(System.out::println).build()) {
                JobStatus s = jobs.run(JobPlan.builder(repo).harness("claude-code").provider("anthropic")
                        .phase("design", "Write PLAN.md for a CSV importer")
                        .phase(PhaseSpec.builder("build", "Implement PLAN.md").fallback("openrouter", null).build())
                        .build());                  // refused whole, before anything runs, on a cycle or unknown dependency
                jobs.resume(s.jobId());             // after a crash or a pause, in any JVM on the same state dir
            }
        }).isInstanceOf(InvalidJobPlanException.class).hasMessageContaining("claude-code")
                .hasMessageContaining("openrouter");
        assertThat(tmp.resolve("state/jobs")).doesNotExist();
    }

    @Test
    void aWorkspaceDeletedUnderAPausedJobFailsItClearlyAndKeepsTheRest() throws Exception {
        JobStatus s = jobs.run(JobTesting.plan(repo).id("lost")
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", JobTesting.commits("b", "phase b"))).build());
        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        // a second job, paused before it starts phase b
        JobRunner pausing = JobRunner.builder(runner).listener(e -> {
            if (e.kind() == JobEvent.Kind.PHASE_STATE && "completed".equals(e.state()) && "a".equals(e.phase())) {
                jobsPause(e.jobId());
            }
        }).build();
        this.pauser = pausing;
        JobStatus p = pausing.run(JobTesting.plan(repo).id("lost2")
                .phase(JobTesting.phase("a", JobTesting.commits("a", "phase a")))
                .phase(JobTesting.phase("b", JobTesting.commits("b", "phase b"))).build());
        assertThat(p.state()).isEqualTo(JobState.PAUSED);
        dev.harness4j.core.internal.workspace.SafeDelete.deleteBelow(tmp.resolve("state"), p.repository());

        assertThatThrownBy(() -> pausing.resume("lost2")).isInstanceOf(JobException.class)
                .hasMessageContaining("was deleted").extracting(e -> ((JobException) e).reason())
                .isEqualTo(JobException.Reason.WORKSPACE_LOST);
        pausing.close();
        JobStatus after = jobs.status("lost2");
        assertThat(after.state()).isEqualTo(JobState.FAILED);
        assertThat(after.phase("a").commit()).isNotNull();
        assertThat(after.phase("a").resultDir()).exists();
        assertThat(Files.readAllLines(after.dir().resolve("events.jsonl"))).isNotEmpty();
        assertThat(jobs.status("lost").state()).isEqualTo(JobState.COMPLETED); // the other job is untouched
    }

    private JobRunner pauser;

    private void jobsPause(String jobId) {
        pauser.pause(jobId);
    }

    private static void waitFor(Path file) throws InterruptedException {
        Instant end = Instant.now().plusSeconds(60);
        while (!Files.exists(file) && Instant.now().isBefore(end)) {
            Thread.sleep(20);
        }
        assertThat(file).exists();
    }
}
