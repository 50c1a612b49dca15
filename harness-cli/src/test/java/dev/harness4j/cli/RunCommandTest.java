package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.McpServer;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.mcp.ScriptedMcpServer;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j run} and {@code run --follow-up} with the real {@code claude} on the scripted server. */
@RealCli
class RunCommandTest {
    private static final Pattern RUN_LINE = Pattern.compile("(?m)^run (\\S+): (\\S+)");

    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private ScriptedModelServer server;
    private String state;

    @BeforeEach
    void setUp() {
        Clis.require(new ClaudeCodeHarness());
        server = ScriptedModelServer.start();
        ProvidersFile.write(ProvidersFile.in(tmp.resolve("state")), List.of(ProviderConfig.scripted(server.baseUrl())));
        state = tmp.resolve("state").toString();
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private Matcher runLine() {
        Matcher m = RUN_LINE.matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        return m;
    }

    private JsonNode meta(String runId) throws Exception {
        try (var s = Files.walk(tmp.resolve("state/results"))) {
            Path meta = s.filter(p -> p.endsWith("meta.json") && p.getParent().getFileName().toString().equals(runId))
                    .findFirst().orElseThrow();
            return new ObjectMapper().readTree(meta.toFile());
        }
    }

    @Test
    void aKeptRunIsFollowedUpByItsIdFromAnotherCommand() throws Exception {
        server.script("cli-follow-up", Scenario.builder()
                .writeFile("first.txt", "one\n").say("Wrote first.txt.")
                .writeFile("second.txt", "two\n").say("Wrote second.txt.").build());
        Path repo = GitRepos.withReadme(tmp.resolve("repo"));

        assertThat(run("run", "--harness", "claude-code", "--provider", "scripted", "--model", "cli-follow-up",
                "--repo", repo.toString(), "--keep", "1h", "--state-dir", state, "Write first.txt, please."))
                .as(out + "\n" + err).isZero();
        Matcher first = runLine();
        String firstId = first.group(1);
        assertThat(first.group(2)).isEqualTo("completed");
        assertThat(out.toString()).contains("session ", "kept until ",
                "follow up with: harness4j run --follow-up " + firstId);

        assertThat(run("run", "--follow-up", firstId, "--state-dir", state, "Now write second.txt too."))
                .as(out + "\n" + err).isZero();
        Matcher second = runLine();
        assertThat(second.group(2)).isEqualTo("completed");
        JsonNode m = meta(second.group(1));
        assertThat(m.path("parent_run_id").asText()).isEqualTo(firstId);
        assertThat(m.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("second.txt");
        assertThat(out.toString()).as("not kept: this command gave no --keep").doesNotContain("kept until");
        List<RecordedRequest> turns = server.requests(RecordedRequest.Kind.TURN);
        assertThat(turns.get(turns.size() - 1).body()).as("the follow-up continued the session: it carries the"
                + " first prompt").contains("Write first.txt, please.").contains("Now write second.txt too.");

        assertThat(run("run", "--follow-up", firstId, "--state-dir", state, "Once more."))
                .as("continued already: bad input, nothing started").isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("run " + firstId + " has no kept workspace", "already continued");
    }

    @Test
    void anMcpServerGivenOnTheCommandLineAnswersTheAgentsToolCall() throws Exception {
        String reply = "the probe says: ticket 4711 is fixed";
        server.script("cli-mcp", Scenario.builder()
                .callTool("mcp__probe__record", "{\"note\":\"from the command line\"}")
                .writeFile("probed.txt", "done\n").say("Done.").build());
        Path repo = GitRepos.withReadme(tmp.resolve("repo"));
        McpServer.Stdio probe = ScriptedMcpServer.create(tmp.resolve("mcp"), reply).stdio("probe");
        String mcp = "probe=" + java.util.stream.Stream.concat(java.util.stream.Stream.of(probe.command()),
                probe.args().stream()).map(a -> "'" + a + "'").collect(java.util.stream.Collectors.joining(" "));

        assertThat(run("run", "--harness", "claude-code", "--provider", "scripted", "--model", "cli-mcp",
                "--repo", repo.toString(), "--mcp", mcp, "--state-dir", state, "Record a note with the probe."))
                .as(out + "\n" + err).isZero();

        assertThat(meta(runLine().group(1)).path("outcome").asText()).isEqualTo("completed");
        List<RecordedRequest> turns = server.requests(RecordedRequest.Kind.TURN);
        assertThat(turns.get(0).tools()).contains("mcp__probe__record");
        assertThat(turns).as("a model request after the call carries the server's answer")
                .anySatisfy(t -> assertThat(t.body()).contains(reply));
    }
}
