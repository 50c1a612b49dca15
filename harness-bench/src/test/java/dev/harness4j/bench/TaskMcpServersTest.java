package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.McpServer;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.api.ProviderResolver;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code task.json}'s {@code mcp_servers}: read with {@code ${TASK_DIR}} resolved (and shown
 * read-only), given to every agent's run of the task but not to the reference harnesses', a
 * harness without MCP refused at plan time, and each malformed entry named.
 */
class TaskMcpServersTest {
    @TempDir Path suite;
    @TempDir Path state;
    @TempDir Path repo;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(repo.resolve(".git"));
        runner = HarnessRunner.builder().stateDir(state).registry(BenchTesting.registry())
                .providers(BenchTesting.resolver(Map.of("scripted", "scripted-a"))).build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private void task(String id, String mcp) throws Exception {
        Files.writeString(Files.createDirectories(suite.resolve(id)).resolve("task.json"), "{\"instruction\": \"Use the"
                + " notes tool\", \"verify\": {\"command\": \"true\"}, \"mcp_servers\": " + mcp + "}");
    }

    @Test
    void theServersReachEveryAgentsRunAndAHarnessWithoutMcpIsRefused() throws Exception {
        task("notes", "[{\"name\": \"notes\", \"command\": \"python3\", \"args\": [\"${TASK_DIR}/mcp/notes.py\", \"-v\"],"
                + " \"env\": {\"LEVEL\": \"2\"}, \"env_from\": {\"NOTES_TOKEN\": \"MY_NOTES_TOKEN\"}},"
                + " {\"name\": \"docs\", \"url\": \"http://127.0.0.1:8931/mcp\"}]");
        BenchTask t = TaskSuite.load(suite).tasks().get(0);
        Path dir = suite.resolve("notes").toAbsolutePath().normalize();
        assertThat(t.mcpServers()).hasSize(2);
        McpServer.Stdio notes = (McpServer.Stdio) t.mcpServers().get(0);
        assertThat(notes.command()).isEqualTo("python3");
        assertThat(notes.args()).containsExactly(dir + "/mcp/notes.py", "-v");
        assertThat(notes.env()).containsEntry("LEVEL", "2");
        assertThat(notes.envFrom()).containsEntry("NOTES_TOKEN", "MY_NOTES_TOKEN");
        assertThat(notes.readOnlyPaths()).containsExactly(dir);
        assertThat(((McpServer.Http) t.mcpServers().get(1)).url()).isEqualTo(URI.create("http://127.0.0.1:8931/mcp"));

        BenchPlan plan = BenchPlan.builder(runner).suite(TaskSuite.load(suite)).baseline(repo).harnesses("claude-code")
                .provider("scripted").build();
        RunSpec spec = plan.spec(plan.combos().get(0));
        assertThat(spec.mcpServers()).containsExactlyElementsOf(t.mcpServers());

        assertThatThrownBy(() -> BenchPlan.builder(runner).suite(TaskSuite.load(suite)).baseline(repo)
                .harnesses("claude-code", "aider").provider("scripted").build())
                .isInstanceOf(BenchPlanException.class)
                .hasMessageContaining("task notes on aider")
                .hasMessageContaining("MCP")
                .hasMessageNotContaining("task notes on claude-code");
    }

    @Test
    void eachMalformedServerIsNamed() throws Exception {
        task("bad", "[{\"command\": \"x\"}, {\"name\": \"a\", \"command\": \"x\", \"url\": \"http://h/\"},"
                + " {\"name\": \"b\"}, {\"name\": \"c\", \"command\": \"x\", \"args\": [1]},"
                + " {\"name\": \"d\", \"url\": \"http://h/\", \"env\": {}}, {\"name\": \"e\", \"command\": \"x\", \"port\": 1},"
                + " {\"name\": \"f\", \"command\": \"x\", \"read_only_paths\": [\"../../etc\"]},"
                + " {\"name\": \"g\", \"command\": \"x\"}, {\"name\": \"g\", \"command\": \"y\"}, \"nope\","
                + " {\"name\": \"h\", \"command\": \"x\", \"env_from\": {\"K\": 1}}]");
        assertThatThrownBy(() -> TaskSuite.load(suite)).isInstanceOf(BenchPlanException.class)
                .hasMessageContaining("mcp_servers[0]: needs a \"name\"")
                .hasMessageContaining("mcp_servers[1]: MCP server 'a' needs either \"command\" (a stdio server) or \"url\""
                        + " (an HTTP server), not both")
                .hasMessageContaining("mcp_servers[2]: MCP server 'b' needs either")
                .hasMessageContaining("mcp_servers[3]: MCP server 'c': \"args\" must be strings")
                .hasMessageContaining("mcp_servers[4]: MCP server 'd' has a \"url\"")
                .hasMessageContaining("mcp_servers[5]: unknown field \"port\"")
                .hasMessageContaining("mcp_servers[6]: MCP server 'f': read_only_paths ../../etc is outside the task dir")
                .hasMessageContaining("mcp_servers[8]: a second MCP server named 'g'")
                .hasMessageContaining("mcp_servers[9] must be an object")
                .hasMessageContaining("mcp_servers[10]: MCP server 'h': env_from K must be the name of an environment variable");
        Files.writeString(suite.resolve("bad/task.json"), "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"},"
                + " \"mcp_servers\": {\"name\": \"x\"}}");
        assertThatThrownBy(() -> TaskSuite.load(suite)).hasMessageContaining("mcp_servers must be an array");
    }
}
