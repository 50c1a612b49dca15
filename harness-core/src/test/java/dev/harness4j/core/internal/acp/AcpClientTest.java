package dev.harness4j.core.internal.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.AcpPermissions;
import dev.harness4j.api.AcpSession;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.Termination;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunMarker;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ACP client driving a real (scripted, Python) agent process under the real supervisor. */
class AcpClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private ProcessSupervisor supervisor;
    private Path agent;
    private Path record;
    private Path workspace;

    @BeforeEach
    void setUp() throws Exception {
        supervisor = ProcessSupervisor.builder().termGrace(Duration.ofSeconds(2)).build();
        agent = tmp.resolve("fake_agent.py");
        try (InputStream in = getClass().getResourceAsStream("/acp/fake_agent.py")) {
            Files.copy(in, agent);
        }
        record = tmp.resolve("sent.jsonl");
        workspace = Files.createDirectories(tmp.resolve("ws"));
    }

    @AfterEach
    void tearDown() {
        supervisor.close();
    }

    @Test
    void drivesTheSessionAnswersPermissionsPerThePolicyAndEndsWhenThePromptIsAnswered() throws Exception {
        McpServer tools = McpServer.stdio("tools", "/usr/bin/tools", "--fast").withEnv("TOKEN", "t");
        Ran r = run("normal", AcpPermissions.ALLOW_IN_WORKSPACE, List.of(tools));

        assertThat(r.outcome.termination().kind()).isEqualTo(Termination.Kind.EXITED);
        assertThat(r.client.sessionId()).isEqualTo("s-1");
        List<JsonNode> sent = sent();
        assertThat(sent).extracting(m -> m.path("method").asText(null))
                .containsSubsequence("initialize", "session/new", "session/prompt");
        JsonNode init = byMethod(sent, "initialize");
        assertThat(init.path("id").asInt()).isEqualTo(AcpSession.INITIALIZE_ID);
        assertThat(init.path("params").path("protocolVersion").asInt()).isEqualTo(1);
        JsonNode newSession = byMethod(sent, "session/new").path("params");
        assertThat(newSession.path("cwd").asText()).isEqualTo(workspace.toString());
        assertThat(newSession.path("mcpServers").get(0).path("command").asText()).isEqualTo("/usr/bin/tools");
        assertThat(newSession.path("mcpServers").get(0).path("env").get(0).path("name").asText()).isEqualTo("TOKEN");
        JsonNode prompt = byMethod(sent, "session/prompt").path("params");
        assertThat(prompt.path("prompt").get(0).path("text").asText()).isEqualTo("write hello.txt");
        assertThat(answer(sent, "perm-inside.txt").path("result").path("outcome").path("optionId").asText())
                .as("a path inside the workspace is allowed").isEqualTo("yes");
        assertThat(answer(sent, "perm-/etc/outside.txt").path("result").path("outcome").path("optionId").asText())
                .as("a path outside it is rejected").isEqualTo("no");
        assertThat(answer(sent, "77").path("error").path("code").asInt()).as("no fs capability").isEqualTo(-32601);
        assertThat(Files.readString(tmp.resolve("stdout.log"))).contains("\"stopReason\": \"end_turn\"");
    }

    @Test
    void allowAllAllowsAPathOutsideTheWorkspace() throws Exception {
        run("normal", AcpPermissions.ALLOW_ALL, List.of());

        assertThat(answer(sent(), "perm-/etc/outside.txt").path("result").path("outcome").path("optionId").asText())
                .isEqualTo("yes");
    }

    @Test
    void anAgentThatKeepsRunningAfterTheAnswerIsEndedAfterTheLinger() throws Exception {
        Ran r = run("lingers", AcpPermissions.ALLOW_ALL, List.of());

        assertThat(r.outcome.termination().kind()).as("the session ended, nobody stopped it").isEqualTo(Termination.Kind.EXITED);
        assertThat(r.took).isLessThan(Duration.ofSeconds(20));
        assertThat(RunMarker.find(r.runId)).isEmpty();
    }

    @Test
    void garbageOnStdoutEndsAtTheHandshakeTimeoutNotAHang() throws Exception {
        Ran r = run("garbage", AcpPermissions.ALLOW_ALL, List.of());

        assertThat(r.took).isLessThan(Duration.ofSeconds(20));
        assertThat(r.client.sessionId()).isNull();
        assertThat(Files.readString(tmp.resolve("stdout.log"))).contains("this is not json-rpc");
        assertThat(RunMarker.find(r.runId)).isEmpty();
    }

    @Test
    void anAgentThatDiesMidSessionEndsTheRun() throws Exception {
        Ran r = run("dies", AcpPermissions.ALLOW_ALL, List.of());

        assertThat(r.outcome.exitCode()).isEqualTo(3);
        assertThat(r.took).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aRefusedSessionEndsTheConversation() throws Exception {
        Ran r = run("refuses", AcpPermissions.ALLOW_ALL, List.of());

        assertThat(r.client.sessionId()).isNull();
        assertThat(sent()).extracting(m -> m.path("method").asText("")).doesNotContain("session/prompt");
        assertThat(r.took).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aStopSendsSessionCancelFirst() throws Exception {
        String runId = "acp-" + UUID.randomUUID();
        CompletableFuture<Ran> f = CompletableFuture.supplyAsync(() -> {
            try {
                return run(runId, "waits-for-cancel", AcpPermissions.ALLOW_ALL, List.of());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((!Files.exists(record) || !Files.readString(record).contains("session/prompt")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(300);
        assertThat(supervisor.bail(runId)).isTrue();
        Ran r = f.get(30, TimeUnit.SECONDS);

        assertThat(r.outcome.termination().kind()).isEqualTo(Termination.Kind.BAILED);
        assertThat(sent()).extracting(m -> m.path("method").asText("")).contains("session/cancel");
        assertThat(Files.readString(tmp.resolve("stdout.log"))).contains("\"stopReason\": \"cancelled\"");
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    private Ran run(String mode, AcpPermissions policy, List<McpServer> mcp) throws Exception {
        return run("acp-" + UUID.randomUUID(), mode, policy, mcp);
    }

    private Ran run(String runId, String mode, AcpPermissions policy, List<McpServer> mcp) throws Exception {
        Invocation launch = Invocation.builder("/usr/bin/python3", agent.toString(), mode, record.toString())
                .workingDir(workspace).build();
        AcpSession session = new AcpSession(launch, policy);
        AcpClient client = new AcpClient(runId, session, workspace, "write hello.txt", mcp, Duration.ofSeconds(2));
        long start = System.nanoTime();
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, launch, tmp).conversation(client).build());
        return new Ran(runId, client, outcome, Duration.ofNanos(System.nanoTime() - start));
    }

    private List<JsonNode> sent() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(record)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    private static JsonNode byMethod(List<JsonNode> sent, String method) {
        return sent.stream().filter(m -> method.equals(m.path("method").asText())).findFirst().orElseThrow();
    }

    private static JsonNode answer(List<JsonNode> sent, String id) {
        return sent.stream().filter(m -> !m.has("method") && id.equals(m.path("id").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no answer to request " + id + " in " + sent));
    }

    private record Ran(String runId, AcpClient client, ProcessOutcome outcome, Duration took) {}
}
