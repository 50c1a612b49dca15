package dev.harness4j.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Harness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.stages.SandboxStage;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.mcp.ScriptedMcpHttp;
import dev.harness4j.testkit.mcp.ScriptedMcpServer;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MCP check an adapter whose {@link Harness#supportsMcp()} is true runs against the real CLI:
 * a run, through the meter and (where bubblewrap works) the sandbox, is given the {@link
 * ScriptedMcpServer} as stdio server {@value #SERVER}; the scripted model calls its tool under the
 * name the CLI gives it, with scripted arguments. The server must have recorded exactly those
 * arguments, the model's next request must carry the tool's answer, and the run goes on to write
 * {@code probed.txt} and complete.
 *
 * <pre>{@code
 * McpCheck.assertCallsTool(new ClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), tmp, "mcp__probe__record");
 * }</pre>
 */
public final class McpCheck {
    /** The MCP server's name in the run. */
    public static final String SERVER = "probe";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REPLY = "the probe recorded it: ticket 4711 is fixed";

    private McpCheck() {}

    /**
     * Runs the check against a scripted model server of its own (requiring {@link
     * ScriptedProvider#KEY}); skips it, with the install command, when the CLI is not installed.
     *
     * @param harness the adapter
     * @param styles the API styles the scripted provider declares for it
     * @param tmp a directory of the test's own
     * @param toolName the name the CLI offers the server's {@value ScriptedMcpServer#TOOL} tool under
     * @return the run's record, for more assertions (its result dir is written; the workspace is gone)
     */
    public static RunRecord assertCallsTool(Harness harness, Set<ApiStyle> styles, Path tmp, String toolName) {
        Clis.require(harness);
        ScriptedMcpServer mcp = ScriptedMcpServer.create(tmp.resolve("mcp"), REPLY);
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY)) {
            return check(harness, styles, server, tmp, toolName, mcp, mcp.stdio(SERVER));
        }
    }

    /**
     * The same check with the scripted MCP server on streamable HTTP ({@link ScriptedMcpHttp}, on
     * this host's loopback), given to the run as an {@link McpServer.Http}, on the runner's default
     * network: a confined run reaches it through the sandbox's relay, at its own address.
     *
     * @param harness the adapter
     * @param styles the API styles the scripted provider declares for it
     * @param tmp a directory of the test's own
     * @param toolName the name the CLI offers the server's {@value ScriptedMcpServer#TOOL} tool under
     * @return the run's record
     */
    public static RunRecord assertCallsHttpTool(Harness harness, Set<ApiStyle> styles, Path tmp, String toolName) {
        Clis.require(harness);
        ScriptedMcpServer mcp = ScriptedMcpServer.create(tmp.resolve("mcp"), REPLY);
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
                ScriptedMcpHttp http = mcp.startHttp()) {
            return check(harness, styles, server, tmp, toolName, mcp, http.server(SERVER));
        }
    }

    private static RunRecord check(Harness harness, Set<ApiStyle> styles, ScriptedModelServer server, Path tmp,
            String toolName, ScriptedMcpServer mcp, McpServer given) {
        String model = harness.id().replace(':', '-') + "-mcp"; // a model id that is safe in a URL path (acp:gemini)
        String note = "scripted note for " + harness.id() + " #4711";
        String reply = REPLY;
        server.script(model, Scenario.builder()
                .callTool(toolName, JSON.createObjectNode().put("note", note).toString())
                .writeFile("probed.txt", "the probe answered\n").say("The probe answered.").build());
        try {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
            Path baseline = GitRepos.withReadme(tmp.resolve("baseline"));
            RunSpec spec = RunSpec.builder(harness.id(), ScriptedProvider.NAME).model(model)
                    .prompt("Record a note with the probe tool.").baseline(baseline)
                    .limits(new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null))
                    .mcpServer(given).build();
            boolean confinable = SandboxStage.builder().build().problem(true, null).isEmpty();
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).runnerEnvironment(env)
                    .registry(HarnessRegistry.builder().add(harness).build())
                    .providers(new ScriptedProvider(server, EnumSet.copyOf(styles))).build()) {
                RunRecord r = runner.run(spec);
                assertThat(RunMarker.find(r.runId())).as("processes left by the run").isEmpty();
                String text = Files.readString(r.resultDir().resolve("meta.json"));
                assertThat(text).doesNotContain(ScriptedProvider.KEY);
                JsonNode meta = JSON.readTree(text);
                List<RecordedRequest> turns = server.requests(RecordedRequest.Kind.TURN).stream()
                        .filter(t -> model.equals(t.model())).toList();
                String seen = "tools offered: " + turns.stream().map(RecordedRequest::tools).distinct().toList()
                        + "; MCP messages: " + mcp.methods() + "; meta: " + meta.toPrettyString();
                if (confinable) {
                    assertThat(meta.path("sandbox").path("mode").asText()).as("the run was confined").isEqualTo("bubblewrap");
                    assertThat(meta.path("sandbox").path("network").asText()).isEqualTo("meter-only");
                }
                assertThat(turns).as(seen).isNotEmpty();
                assertThat(turns.get(0).tools()).as(seen).contains(toolName);
                assertThat(mcp.calls()).as("the MCP server's recorded calls; " + seen).hasSize(1);
                assertThat(mcp.calls().get(0).path("note").asText()).isEqualTo(note);
                int call = -1;
                for (int i = 0; i < turns.size(); i++) {
                    if (turns.get(i).body().contains(reply)) {
                        call = i;
                        break;
                    }
                }
                assertThat(call).as("a model request after the call carries the tool's answer; " + seen).isPositive();
                assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("completed");
                assertThat(meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("probed.txt");
                return r;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
