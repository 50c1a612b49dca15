package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every run gets a phase report, with its source: the agent's {@code .harness4j/report.json}
 * (which stays out of the diff and of commits), else git's; committed always from git; a time
 * stop racing a finished phase counts as completed. Real git, real processes ({@link ShellHarness}).
 */
class PhaseReportTest {
    private static final String GOOD = "{\"completed\": true, \"committed\": false, \"commit_message\": \"claimed\","
            + " \"summary\": \"Added a.txt.\", \"next_phase_notes\": \"Wire a.txt into the build.\","
            + " \"blockers\": [\"none really\"]}";

    @TempDir Path tmp;
    private Path base;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() {
        base = repo(tmp.resolve("base"));
        runner = runner(PhaseReports.DEFAULT, "state");
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private HarnessRunner runner(PhaseReports reports, String state) {
        return HarnessRunner.builder().stateDir(tmp.resolve(state)).phaseReports(reports)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).add(new EnvelopeHarness()).build())
                .providers(ShellHarness.provider()).build();
    }

    private RunSpec.Builder spec(String script) {
        return RunSpec.builder(ShellHarness.ID, "local").model("m1").prompt("Add a.txt").baseline(base)
                .option("script", script);
    }

    /** Shell that writes {@code json} to the report file. */
    static String report(String json) {
        return "mkdir -p .harness4j && printf '%s' '" + json + "' > .harness4j/report.json";
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile());
    }

    @Test
    void theAgentsReportIsReadWithCommittedAndTheMessageFromGit() throws Exception {
        RunRecord r = runner.run(spec("echo \"$PROMPT\"; echo a > a.txt && git add -A && git commit -qm 'Add a.txt'; "
                + report(GOOD)).build());

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(p.completed()).isTrue();
        assertThat(p.committed()).as("git says committed, whatever the agent claims").isTrue();
        assertThat(p.commitMessage()).isEqualTo("Add a.txt");
        assertThat(p.summary()).isEqualTo("Added a.txt.");
        assertThat(p.nextPhaseNotes()).isEqualTo("Wire a.txt into the build.");
        assertThat(p.blockers()).containsExactly("none really");
        JsonNode json = meta(r).path("phase_report");
        assertThat(json.path("source").asText()).isEqualTo("self_report");
        assertThat(json.path("committed").asBoolean()).isTrue();
        assertThat(json.path("next_phase_notes").asText()).isEqualTo("Wire a.txt into the build.");
        assertThat(Files.readString(r.resultDir().resolve("transcript.log")))
                .as("the contract reached the agent").contains(".harness4j/report.json", "next_phase_notes");
    }

    @Test
    void aClaimOfCommittedWithNothingCommittedIsFalse() {
        RunRecord r = runner.run(spec("echo a > a.txt; " + report(GOOD.replace("\"committed\": false",
                "\"committed\": true"))).build());

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(p.committed()).isFalse();
        assertThat(p.commitMessage()).as("no commit: the agent's proposal").isEqualTo("claimed");
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void theReportStaysOutOfTheDiffTheDiffstatAndTheLibrarysCommitAndIsNotIgnoredWhileTheAgentRuns(
            Isolation isolation) throws Exception {
        Path remote = Files.createDirectories(tmp.resolve("remote.git"));
        git(remote, "init", "-q", "--bare");
        git(base, "remote", "add", "origin", remote.toString());
        try (HarnessRunner pushing = HarnessRunner.builder().stateDir(tmp.resolve("state-push")).pushBranches(true)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            // committed work, then uncommitted work for the library's snapshot commit, then the report
            RunRecord r = pushing.run(spec("echo a > a.txt && git add -A && git commit -qm c1 && echo b > b.txt && "
                    + report(GOOD) + " && (git check-ignore -q .harness4j/report.json || echo NOT-IGNORED)")
                    .isolation(isolation).build());

            assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
            assertThat(Files.readString(r.resultDir().resolve("transcript.log")))
                    .as("aider refuses to edit an ignored file").contains("NOT-IGNORED");
            assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("a.txt", "b.txt")
                    .doesNotContain(".harness4j");
            assertThat(Files.readString(r.resultDir().resolve("diffstat.txt"))).doesNotContain(".harness4j");
            assertThat(r.changes().files()).containsExactlyInAnyOrder("a.txt", "b.txt");
            assertThat(r.changes().dirty()).isTrue();
            assertThat(r.branch().pushed()).as(String.valueOf(r.branch())).isTrue();
            assertThat(git(remote, "ls-tree", "-r", "--name-only", r.branch().name()))
                    .as("the library's snapshot commit").contains("b.txt").doesNotContain(".harness4j");
            assertThat(Files.exists(base.resolve(".harness4j"))).as("the baseline is untouched").isFalse();
        }
    }

    @Test
    void aReportTheAgentCommittedIsReadNotedAndLeftOutOfTheCapturedChanges() {
        RunRecord r = runner.run(spec("echo a > a.txt && " + report(GOOD) + " && git add -A && git commit -qm c1")
                .build());

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(r.result().phaseReport().committed()).as("its removal leaves the work committed").isTrue();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("was committed by the agent"));
        assertThat(r.changes().files()).containsExactly("a.txt");
    }

    @Test
    void aReportCommittedWithOtherWorkLeftUncommittedIsNotCommitted() {
        RunRecord r = runner.run(spec("echo a > a.txt && " + report(GOOD) + " && git add -A && git commit -qm c1"
                + " && echo b > b.txt").build());

        assertThat(r.result().phaseReport().committed()).isFalse();
        assertThat(r.changes().files()).containsExactlyInAnyOrder("a.txt", "b.txt");
    }

    @Test
    void aReportTheBaselineAlreadyHadIsNotTakenForTheRuns() throws Exception {
        GitFixture.write(base, ".harness4j/report.json", GOOD);
        GitFixture.commitAll(base, "a report from an earlier phase");

        RunRecord r = runner.run(spec("echo a > a.txt").build());

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("the baseline already had"));
        assertThat(r.changes().files()).containsExactly("a.txt");
    }

    @Test
    void aMalformedReportIsIgnoredWithANoteAndGitDerivesOne() throws Exception {
        RunRecord r = runner.run(spec("echo a > a.txt; " + report("{\"completed\": \"yes\", \"summary\": \"x\"}")).build());

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        assertThat(p.completed()).as("outcome completed").isTrue();
        assertThat(p.committed()).isFalse();
        assertThat(p.summary()).contains("1 file changed", "not committed", "a.txt");
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("report.json ignored", "'completed' must be"));
        assertThat(meta(r).path("notes").toString()).contains("report.json ignored");
    }

    @Test
    void reportsWithUnknownKeysOrThatAreNoObjectOrASymlinkAreIgnored() throws Exception {
        Files.writeString(tmp.resolve("outside.json"), GOOD);
        for (String script : List.of(report(GOOD.replace("\"blockers\"", "\"mood\": \"ok\", \"blockers\"")),
                report("[1, 2]"), report("not json at all"),
                "mkdir -p .harness4j && ln -s " + tmp.resolve("outside.json") + " .harness4j/report.json")) {
            RunRecord r = runner.run(spec("echo a > a.txt; " + script).build());
            assertThat(r.result().phaseReport().source()).as(script).isEqualTo(PhaseReport.Source.GIT_DERIVED);
            assertThat(r.notes()).as(script).anySatisfy(n -> assertThat(n).contains("report.json ignored"));
        }
    }

    @Test
    void withoutAReportTheReportIsGitDerived() {
        RunRecord r = runner.run(spec("echo a > a.txt && git add -A && git commit -qm 'Add a.txt'").build());

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        assertThat(p.completed()).isTrue();
        assertThat(p.committed()).isTrue();
        assertThat(p.commitMessage()).isEqualTo("Add a.txt");
        assertThat(p.summary()).isEqualTo("1 file changed (+1 -0), committed: a.txt.");
        assertThat(r.notes()).noneSatisfy(n -> assertThat(n).contains("phase report"));
    }

    @Test
    void aFailedRunIsNeitherCompletedNorCommitted() {
        RunRecord r = runner.run(spec("echo a > a.txt; exit 3").build());

        assertThat(r.result().outcome()).isEqualTo(Outcome.ERROR);
        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        assertThat(p.completed()).isFalse();
        assertThat(p.committed()).isFalse();
    }

    @Test
    void aCompletedClaimOfAFailedRunIsNotCompleted() {
        RunRecord r = runner.run(spec("echo a > a.txt; " + report(GOOD) + "; exit 3").build());

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(r.result().phaseReport().completed()).isFalse();
    }

    @Test
    void gitOnlyAddsNoPromptTextAndReadsNoReportFile() throws Exception {
        try (HarnessRunner plain = runner(PhaseReports.GIT_ONLY, "state-plain")) {
            RunRecord r = plain.run(spec("echo \"[$PROMPT]\"; echo a > a.txt; " + report(GOOD)).build());

            assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).doesNotContain("report.json");
            assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
            assertThat(r.changes().files()).as("not read, and captured as any file of the agent's")
                    .contains(".harness4j/report.json");
        }
    }

    @Test
    void aMaxRuntimeStopAfterACompletedCommittedPhaseCountsAsCompletedWithTheStopRecorded() throws Exception {
        Limits limits = Limits.NONE.withMaxRuntime(Duration.ofSeconds(3));
        RunRecord r = runner.run(spec("echo a > a.txt && git add -A && git commit -qm 'Add a.txt' && " + report(GOOD)
                + " && echo done && sleep 60").limits(limits).build());

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.result().reason()).contains("before the guard's stop");
        assertThat(r.termination().kind()).isEqualTo(Termination.Kind.MAX_RUNTIME);
        assertThat(r.result().phaseReport().completed()).isTrue();
        assertThat(r.result().phaseReport().committed()).isTrue();
        JsonNode meta = meta(r);
        assertThat(meta.path("outcome").asText()).isEqualTo("completed");
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("max_runtime");
        assertThat(meta.path("notes").toString()).contains("counted as completed");
    }

    @Test
    void aMaxRuntimeStopWithUncommittedWorkStaysATimeout() {
        Limits limits = Limits.NONE.withMaxRuntime(Duration.ofSeconds(3));
        RunRecord r = runner.run(spec("echo a > a.txt && " + report(GOOD) + " && sleep 60").limits(limits).build());

        assertThat(r.result().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.result().phaseReport().completed()).isFalse();
        assertThat(r.result().phaseReport().committed()).isFalse();
    }

    @Test
    void anAdaptersOwnReportWinsWithCommittedFromGit() throws Exception {
        RunRecord r = runner.run(RunSpec.builder(EnvelopeHarness.ID, "local").model("m1").prompt("x").baseline(base)
                .option("script", "echo a > a.txt; " + report(GOOD)).build());

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(p.summary()).isEqualTo("from the envelope");
        assertThat(p.committed()).as("the envelope says committed; git does not").isFalse();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("the adapter's own"));
    }

    /** A structured-style harness whose result envelope carries its own phase report. */
    static final class EnvelopeHarness implements Harness {
        static final String ID = "envelope-test";
        private final ShellHarness shell = new ShellHarness();

        @Override public String id() { return ID; }
        @Override public CompletionMode completionMode() { return CompletionMode.STRUCTURED; }
        @Override public InstallInfo installInfo() { return shell.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return shell.prepare(ctx); }

        @Override
        public HarnessResult interpret(Execution ex) {
            return shell.interpret(ex).withPhaseReport(new PhaseReport(true, true, "envelope message",
                    "from the envelope", null, List.of(), PhaseReport.Source.SELF_REPORT));
        }
    }
}
