package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.fingerprint;
import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-up prompts on the runner, with a shell harness that keeps a "session" in its scratch dir:
 * a kept run continued in its own workspace, refusals for what cannot be continued, one
 * follow-up per kept run even when two race, and the sweep of expired kept workspaces.
 */
class FollowUpTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;

    /**
     * {@link ShellHarness} that resumes: its session id is what the script wrote to {@code
     * $SCRATCH/session.txt}, and a follow-up's script gets the session to continue in {@code
     * $RESUME_SESSION} (empty for a run of its own) and {@code $KEEP_SESSION}.
     */
    static final class ResumingShell implements Harness {
        static final String ID = "sh-resume";

        @Override public String id() { return ID; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new ShellHarness().installInfo(); }
        @Override public boolean supportsFollowUp() { return true; }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            if (ctx.option("fail-prepare").isPresent()) {
                throw new dev.harness4j.api.HarnessException("refused before the agent started");
            }
            return Invocation.builder(ctx.executable(), "-c", ctx.option("script").orElse("true"))
                    .workingDir(ctx.workspace())
                    .env("SCRATCH", ctx.scratchDir().toString())
                    .env("RESUME_SESSION", ctx.followUpSession().orElse(""))
                    .env("KEEP_SESSION", Boolean.toString(ctx.keepSession())).build();
        }

        @Override
        public HarnessResult interpret(Execution ex) {
            Path session = ex.context().scratchDir().resolve("session.txt");
            String id;
            try {
                id = Files.isRegularFile(session) ? Files.readString(session).strip() : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model())
                    .sessionId(id.isEmpty() ? null : id).build();
        }
    }

    private HarnessRunner runner(Duration keep) {
        HarnessRunner.Builder b = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).add(new ResumingShell()).build())
                .providers(ShellHarness.provider());
        return (keep != null ? b.keepWorkspace(keep) : b).build();
    }

    private static RunSpec spec(String harness, Path base, String script) {
        return RunSpec.builder(harness, "local").model("m1").prompt("do it").baseline(base)
                .isolation(Isolation.CLONE).option("script", script).build();
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return JSON.readTree(r.metaFile().toFile());
    }

    private static final String FIRST = "echo one > first.txt && echo \"keep=$KEEP_SESSION\" > kept.txt"
            + " && echo sess-1 > \"$SCRATCH/session.txt\"";
    private static final String SECOND = "test \"$RESUME_SESSION\" = sess-1 && test -f first.txt"
            + " && test \"$(cat \"$SCRATCH/session.txt\")\" = sess-1 && echo two > second.txt";

    @Test
    void aFollowUpRunsInTheKeptWorkspaceWithTheSessionAndItsDiffStartsAtThePreviousEnd() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Map<String, String> before = fingerprint(base);
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ResumingShell.ID, base, FIRST));
            JsonNode m1 = meta(first);
            assertThat(m1.path("outcome").asText()).as(m1.toPrettyString()).isEqualTo("completed");
            assertThat(m1.path("session_id").asText()).isEqualTo("sess-1");
            assertThat(m1.path("kept_workspace").path("session_id").asText()).isEqualTo("sess-1");
            assertThat(m1.path("kept_workspace").path("until").asText()).isNotBlank();
            KeptWorkspace kept = runner.keptWorkspace(first.runId()).orElseThrow();
            assertThat(kept.harness()).isEqualTo(ResumingShell.ID);
            assertThat(kept.runDir().resolve("workspace/kept.txt")).hasContent("keep=true");

            RunRecord second = runner.followUp(first.runId(), spec(ResumingShell.ID, base, SECOND), "follow-1",
                    HarnessListener.NONE);

            JsonNode m2 = meta(second);
            assertThat(m2.path("outcome").asText()).as("the script checks the session, the scratch dir and first.txt: "
                    + m2.toPrettyString()).isEqualTo("completed");
            assertThat(m2.path("parent_run_id").asText()).isEqualTo(first.runId());
            assertThat(m2.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("second.txt");
            assertThat(Files.readString(second.resultDir().resolve("diff.patch"))).contains("+two")
                    .doesNotContain("first.txt");
            assertThat(runner.keptWorkspace(first.runId())).as("continued: no longer offered").isEmpty();
            assertThat(runner.keptWorkspace(second.runId())).as("the follow-up is kept in turn").isPresent();
            assertThat(fingerprint(base)).as("the baseline is never touched").isEqualTo(before);
        }
    }

    @Test
    void aFollowUpThatEndsBeforeItsAgentStartsGivesTheKeptWorkspaceBack() throws Exception {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ResumingShell.ID, base, FIRST));
            KeptWorkspace kept = runner.keptWorkspace(first.runId()).orElseThrow();

            RunSpec refused = spec(ResumingShell.ID, base, SECOND).toBuilder().option("fail-prepare", "1").build();
            RunRecord failed = runner.followUp(first.runId(), refused, "follow-refused", HarnessListener.NONE);
            assertThat(meta(failed).path("outcome").asText()).isEqualTo("error");
            assertThat(meta(failed).path("notes").toString()).contains("waits for another follow-up");
            assertThat(runner.keptWorkspace(first.runId())).as("given back, as kept").contains(kept);
            assertThat(kept.runDir().resolve("workspace/first.txt")).exists();

            RunRecord second = runner.followUp(first.runId(), spec(ResumingShell.ID, base, SECOND), "follow-2",
                    HarnessListener.NONE);
            assertThat(meta(second).path("outcome").asText()).as(meta(second).toPrettyString()).isEqualTo("completed");
            assertThat(meta(second).path("changes").path("files")).extracting(JsonNode::asText)
                    .containsExactly("second.txt");
        }
    }

    @Test
    void aHarnessThatCannotResumeIsRefusedBeforeAnythingRuns() throws Exception {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ShellHarness.ID, base, "echo a > a.txt"));
            assertThat(meta(first).path("outcome").asText()).isEqualTo("completed");
            assertThat(meta(first).has("kept_workspace")).as("sh-test does not resume: nothing kept").isFalse();
            assertThat(runner.keptWorkspace(first.runId())).isEmpty();

            assertThatThrownBy(() -> runner.followUp(first, "more")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sh-test cannot take a follow-up prompt").hasMessageContaining("new run");
        }
    }

    @Test
    void aRunThatReportedNoSessionIsNotKeptAndSaysWhy() throws Exception {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ResumingShell.ID, base, "echo a > a.txt"));
            JsonNode m = meta(first);
            assertThat(m.path("outcome").asText()).isEqualTo("completed");
            assertThat(m.has("kept_workspace")).isFalse();
            assertThat(m.path("notes").toString()).contains("not kept for a follow-up").contains("no session id");
            assertThatThrownBy(() -> runner.followUp(first, "more")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has no kept workspace");
        }
    }

    @Test
    void aFollowUpOfAnotherHarnessIsRefused() throws Exception {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ResumingShell.ID, base, FIRST));
            RunSpec other = RunSpec.builder("sh-resume-2", "local").model("m1").prompt("x").baseline(base).build();
            assertThatThrownBy(() -> runner.followUp(first.runId(), other, "follow-1", HarnessListener.NONE))
                    .isInstanceOf(RuntimeException.class).hasMessageContaining("sh-resume-2");
            assertThat(runner.keptWorkspace(first.runId())).as("a refusal claims nothing").isPresent();
        }
    }

    @Test
    void twoFollowUpsRacingForOneKeptRunLetExactlyOneContinueIt() throws Exception {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner runner = runner(Duration.ofHours(1))) {
            RunRecord first = runner.run(spec(ResumingShell.ID, base, FIRST));
            assertThat(runner.keptWorkspace(first.runId())).isPresent();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<RunRecord>> racers = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Callable<RunRecord> c = () -> runner.followUp(first, "race");
                    racers.add(pool.submit(c));
                }
                int completed = 0;
                List<String> refusals = new ArrayList<>();
                for (Future<RunRecord> f : racers) {
                    try {
                        RunRecord r = f.get();
                        String outcome = meta(r).path("outcome").asText();
                        if (!outcome.equals("error")) { // the winner re-ran the first script: no-op
                            completed++;
                            assertThat(meta(r).path("parent_run_id").asText()).isEqualTo(first.runId());
                        } else {
                            refusals.add(meta(r).path("reason").asText());
                        }
                    } catch (java.util.concurrent.ExecutionException e) {
                        refusals.add(e.getCause().getMessage());
                    }
                }
                assertThat(completed).as("refusals: " + refusals).isEqualTo(1);
                assertThat(refusals).hasSize(1).allSatisfy(m -> assertThat(m).contains("already"));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void anExpiredKeptWorkspaceIsRefusedAndSweptByTheNextRunnerOnTheStateDir() throws Exception {
        Path base = repo(tmp.resolve("base"));
        RunRecord first;
        Path kept;
        try (HarnessRunner runner = runner(Duration.ofMillis(1))) {
            first = runner.run(spec(ResumingShell.ID, base, FIRST));
            kept = runner.keptWorkspace(first.runId()).orElseThrow().runDir();
            assertThat(kept).isDirectory();
            Thread.sleep(5);
            assertThatThrownBy(() -> runner.followUp(first, "late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("expired").hasMessageContaining(first.runId());
        }
        try (HarnessRunner again = runner(null)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (Files.exists(kept) && System.nanoTime() < deadline) {
                Thread.sleep(20); // the sweep runs on the runner's housekeeping thread
            }
            assertThat(kept).as("swept when a runner was built on the state dir").doesNotExist();
            assertThat(again.keptWorkspace(first.runId())).isEmpty();
            assertThat(first.metaFile()).as("the result stays").exists();
        }
    }
}
