package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job phase's {@code mcp_servers}: read from and written to the plan file, given to the phase's
 * runs, and a phase whose harness takes no MCP servers refused with the plan, before anything is
 * written.
 */
class JobMcpTest {
    @TempDir Path tmp;
    private Path repo;

    @BeforeEach
    void setUp() throws Exception {
        repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
    }

    @Test
    void thePhasesServersReachItsRunsAndSurviveThePlanFile() throws Exception {
        Path file = tmp.resolve("plan.json");
        Files.writeString(file, "{\"id\": \"tools\", \"baseline\": \"" + repo + "\", \"harness\": \"" + JobHarness.ID
                + "\", \"provider\": \"local\", \"phases\": [{\"id\": \"one\", \"prompt\": \"use the tools\","
                + " \"options\": {\"script\": \"test \\\"$MCP_SERVERS\\\" = notes,docs && " + JobTesting.commits("a.txt", "one")
                .replace("\"", "\\\"") + "\"}, \"mcp_servers\": [{\"name\": \"notes\", \"command\": \"notes-server\","
                + " \"args\": [\"--v\"], \"env\": {\"LEVEL\": \"2\"}}, {\"name\": \"docs\", \"url\": \"http://127.0.0.1:8931/mcp\"}]}]}");
        JobPlan plan = JobPlan.read(file);
        PhaseSpec one = plan.phases().get(0);
        assertThat(one.mcpServers()).containsExactly(McpServer.stdio("notes", "notes-server", "--v").withEnv("LEVEL", "2"),
                McpServer.http("docs", URI.create("http://127.0.0.1:8931/mcp")));
        assertThat(JobPlan.read(writeBack(plan)).phases().get(0).mcpServers()).isEqualTo(one.mcpServers());

        try (HarnessRunner runner = JobTesting.runner(tmp.resolve("state"));
                JobRunner jobs = JobRunner.builder(runner).build()) {
            JobStatus s = jobs.run(plan);
            assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        }
    }

    private Path writeBack(JobPlan plan) throws Exception {
        Path again = tmp.resolve("again.json");
        Files.writeString(again, plan.toJson());
        return again;
    }

    @Test
    void aPhaseWhoseHarnessTakesNoMcpServersIsRefusedWithThePlan() throws Exception {
        Harness plain = new Harness() { // job-test without MCP
            private final JobHarness inner = new JobHarness();
            @Override public String id() { return "job-plain"; }
            @Override public CompletionMode completionMode() { return inner.completionMode(); }
            @Override public InstallInfo installInfo() { return inner.installInfo(); }
            @Override public Invocation prepare(HarnessContext c) { return inner.prepare(c); }
            @Override public HarnessResult interpret(Execution e) { return inner.interpret(e); }
        };
        JobPlan plan = JobTesting.plan(repo).id("refused").phase(PhaseSpec.builder("one", "x").harness("job-plain")
                .mcpServer(McpServer.stdio("notes", "notes-server")).build()).build();
        try (HarnessRunner runner = JobTesting.builder(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new JobHarness()).add(plain).build()).build();
                JobRunner jobs = JobRunner.builder(runner).build()) {
            assertThatThrownBy(() -> jobs.run(plan)).isInstanceOf(InvalidJobPlanException.class)
                    .hasMessageContaining("phase one: ").hasMessageContaining("job-plain").hasMessageContaining("MCP");
            assertThat(tmp.resolve("state/jobs/refused")).doesNotExist();
        }
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"id\": \"bad\", \"baseline\": \"" + repo + "\", \"harness\": \"job-test\","
                + " \"provider\": \"local\", \"phases\": [{\"id\": \"one\", \"prompt\": \"x\", \"mcp_servers\": [{\"name\": \"n\"}]}]}");
        assertThatThrownBy(() -> JobPlan.read(bad)).isInstanceOf(InvalidJobPlanException.class)
                .hasMessageContaining("phase one").hasMessageContaining("\"mcp_servers\"")
                .hasMessageContaining("\"command\"");
    }
}
