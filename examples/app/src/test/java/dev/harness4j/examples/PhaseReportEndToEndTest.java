package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.aider.AiderHarness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.PhaseReports;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Phase reports with the real CLIs (claude-code, opencode, aider) against the scripted model
 * server: the agent writes {@code .harness4j/report.json} with its own file-writing tool and it is
 * read (and left out of the diff); without one, a summarizer (a scripted model, called over HTTP)
 * reports; without a summarizer, git does. One class for all three, to keep CI time low.
 */
@RealCli
class PhaseReportEndToEndTest {
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(3));
    private static final String REPORT = "{\"completed\": true, \"committed\": false, \"commit_message\": null,"
            + " \"summary\": \"Wrote hello.txt as asked.\", \"next_phase_notes\": \"hello.txt is ready for phase 2.\","
            + " \"blockers\": []}";
    private static final String SUMMARY = "{\"completed\": true, \"commit_message\": \"Add hello.txt\", \"summary\":"
            + " \"The agent wrote hello.txt.\", \"next_phase_notes\": \"Build on hello.txt.\", \"blockers\": []}";

    private static ScriptedModelServer server;

    @TempDir Path tmp;
    private Path baseline;

    @BeforeAll
    static void startServer() {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        baseline = BenchMain.sampleRepo(tmp.resolve("baseline"));
    }

    /** hello.txt, then (when asked) the report, each written with the CLI's own way of writing files. */
    private static Scenario work(String harness, boolean withReport) {
        if (harness.equals(AiderHarness.ID)) { // aider asks once: both files as whole-file blocks in one answer
            String text = "hello.txt\n```\nhello\n```\n"
                    + (withReport ? PhaseReports.REPORT_FILE + "\n```\n" + REPORT + "\n```\n" : "");
            return Scenario.builder().say(text).build();
        }
        Scenario.Builder s = Scenario.builder().writeFile("hello.txt", "hello\n");
        if (withReport) {
            s.writeFile(PhaseReports.REPORT_FILE, REPORT);
        }
        return s.say("Done.").build();
    }

    private RunRecord run(PhaseReports reports, String harness, String model) {
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).phaseReports(reports)
                .providers(new ScriptedProvider(server)).build()) {
            RunRecord record = runner.run(RunSpec.builder(harness, ScriptedProvider.NAME).model(model)
                    .prompt("Write hello.txt.").baseline(baseline).limits(LIMITS)
                    .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").option("stream", "false").build());
            assertThat(RunMarker.find(record.runId())).as("processes left with run %s's marker", record.runId()).isEmpty();
            return record;
        }
    }

    private static JsonNode phase(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile()).path("phase_report");
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void theAgentsOwnReportIsReadAndLeftOutOfTheDiff(String harness) throws Exception {
        String model = "phase-self-" + harness;
        server.script(model, work(harness, true));

        RunRecord r = run(PhaseReports.DEFAULT, harness, model);

        assertThat(r.result().outcome().isSuccess()).as(r.result().reason()).isTrue();
        JsonNode phase = phase(r);
        assertThat(phase.path("source").asText()).as(phase.toString()).isEqualTo("self_report");
        assertThat(phase.path("summary").asText()).isEqualTo("Wrote hello.txt as asked.");
        assertThat(phase.path("next_phase_notes").asText()).isEqualTo("hello.txt is ready for phase 2.");
        assertThat(phase.path("completed").asBoolean()).isTrue();
        assertThat(phase.path("committed").asBoolean()).as("from git").isEqualTo(r.changes().headMoved()
                && !r.changes().dirty() || r.notes().stream().anyMatch(n -> n.contains("committed by the agent")));
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("hello.txt")
                .doesNotContain(".harness4j");
        assertThat(r.changes().files()).containsExactly("hello.txt");
        assertThat(server.requests()).filteredOn(q -> model.equals(q.model()) && q.kind() != RecordedRequest.Kind.OTHER)
                .as("the contract reached the model").anySatisfy(q -> assertThat(q.body()).contains("report.json"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void withoutAReportTheScriptedSummarizerReports(String harness) throws Exception {
        String model = "phase-summ-run-" + harness;
        String summarizer = "phase-summarizer-" + harness;
        server.script(model, work(harness, false));
        server.script(summarizer, Scenario.builder().say(SUMMARY).build());

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer(ScriptedProvider.NAME, summarizer), harness, model);

        JsonNode phase = phase(r);
        assertThat(phase.path("source").asText()).as(phase + " " + r.notes()).isEqualTo("summarized");
        assertThat(phase.path("summary").asText()).isEqualTo("The agent wrote hello.txt.");
        assertThat(server.played(summarizer)).isEqualTo(1);
        assertThat(server.requests()).filteredOn(q -> summarizer.equals(q.model()))
                .singleElement().satisfies(q -> assertThat(q.body()).contains("hello.txt"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void withoutAReportOrASummarizerGitReports(String harness) throws Exception {
        String model = "phase-git-" + harness;
        server.script(model, work(harness, false));

        RunRecord r = run(PhaseReports.DEFAULT, harness, model);

        JsonNode phase = phase(r);
        assertThat(phase.path("source").asText()).as(phase.toString()).isEqualTo("git_derived");
        assertThat(phase.path("completed").asBoolean()).isEqualTo(r.result().outcome().wireName().equals("completed"));
        assertThat(phase.path("summary").asText()).contains("hello.txt");
    }
}
