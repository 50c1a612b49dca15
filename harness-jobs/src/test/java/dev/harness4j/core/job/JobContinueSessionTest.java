package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Phases marked {@code continue_session}: the phase before's session continued in its kept workspace, or afresh. */
class JobContinueSessionTest {
    /** Phase one: commits a.txt, leaves a file in its scratch dir, reports session s-1. */
    private static final String ONE = "echo s > \"$SCRATCH/left-by-one\" && " + JobTesting.commits("a.txt", "phase one")
            + " && echo 'SESSION s-1'";
    /** Phase two, continued: fails unless it resumes s-1 in phase one's scratch dir. */
    private static final String TWO_CONTINUED = "test \"$RESUME_SESSION\" = s-1 && test -f \"$SCRATCH/left-by-one\""
            + " && test -f a.txt && " + JobTesting.commits("b.txt", "phase two") + " && echo 'SESSION s-1'";

    @TempDir Path tmp;
    private Path repo;
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
    }

    private JobPlan plan(String id, String two) {
        return JobTesting.plan(repo).id(id)
                .phase(JobTesting.phase("one", ONE))
                .phase(PhaseSpec.builder("two", "do phase two").option("script", two).continueSession(true).build())
                .build();
    }

    private List<String> notes() {
        return events.stream().filter(e -> e.kind() == JobEvent.Kind.NOTE && "two".equals(e.phase()))
                .map(JobEvent::detail).toList();
    }

    @Test
    void aContinueSessionPhaseResumesThePhaseBeforeInItsKeptWorkspace() {
        try (HarnessRunner runner = JobTesting.builder(tmp.resolve("state")).keepWorkspace(Duration.ofHours(1)).build();
                JobRunner jobs = JobRunner.builder(runner).listener(events::add).build()) {
            JobStatus s = jobs.run(plan("continued", TWO_CONTINUED));

            assertThat(s.state()).as(events.toString()).isEqualTo(JobState.COMPLETED);
            String oneRun = s.phase("one").runIds().get(0);
            assertThat(notes()).anyMatch(n -> n.contains("continues the session of run " + oneRun) && n.contains("s-1"));
            assertThat(GitFixture.git(s.repository(), "log", "--reverse", "--format=%s", s.branch()).split("\n"))
                    .containsExactly("initial", "phase one", "phase two");
        }
    }

    @Test
    void withoutKeptWorkspacesThePhaseRunsAfreshAndSaysWhy() {
        String two = "test -z \"$RESUME_SESSION\" && test -f a.txt && " + JobTesting.commits("b.txt", "phase two");
        try (HarnessRunner runner = JobTesting.runner(tmp.resolve("state"));
                JobRunner jobs = JobRunner.builder(runner).listener(events::add).build()) {
            JobStatus s = jobs.run(plan("afresh", two));

            assertThat(s.state()).as(events.toString()).isEqualTo(JobState.COMPLETED);
            assertThat(notes()).anyMatch(n -> n.contains("runs afresh") && n.contains("no kept workspace")
                    && n.contains("keepWorkspace(Duration)"));
        }
    }

    @Test
    void aPlanMustGiveAContinuedPhaseExactlyOnePhaseBeforeWithItsHarness() throws Exception {
        assertThatThrownBy(() -> JobTesting.plan(repo).id("bad")
                .phase(JobTesting.phase("a", "true")).phase(JobTesting.phase("b", "true"))
                .phase(PhaseSpec.builder("c", "x").dependsOn("a", "b").continueSession(true).build()).build())
                .isInstanceOf(InvalidJobPlanException.class)
                .hasMessageContaining("phase c continues a session, so it must depend on exactly one phase");
        assertThatThrownBy(() -> JobTesting.plan(repo).id("bad2").phase(JobTesting.phase("a", "true"))
                .phase(PhaseSpec.builder("b", "x").harness("codex").continueSession(true).build()).build())
                .isInstanceOf(InvalidJobPlanException.class)
                .hasMessageContaining("needs its harness job-test, not codex");
        Path file = Files.writeString(tmp.resolve("plan.json"), "{\"baseline\": \"repo\", \"harness\": \"job-test\","
                + " \"provider\": \"local\", \"phases\": [{\"id\": \"a\", \"prompt\": \"x\"},"
                + " {\"id\": \"b\", \"prompt\": \"y\", \"continue_session\": true}]}");
        JobPlan read = JobPlan.read(file);
        assertThat(read.phase("b").continueSession()).isTrue();
        assertThat(read.phase("a").continueSession()).isFalse();
        assertThat(read.toJson()).contains("\"continue_session\":true");
    }
}
