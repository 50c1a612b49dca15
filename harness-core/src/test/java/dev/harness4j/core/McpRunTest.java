package dev.harness4j.core;

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
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers on the runner: a harness that does not support MCP refuses a run with servers
 * before anything is written, and a stdio server (started by the agent, so inside the sandbox)
 * sees the paths it declared and nothing else of the hidden HOME.
 */
class McpRunTest {
    @TempDir Path tmp;

    /**
     * A provider-less harness that supports MCP and, like an agent starting its MCP servers, runs
     * each stdio server's command with its arguments, and fetches each HTTP server's URL with curl.
     */
    static final class McpShell implements Harness {
        static final String ID = "sh-mcp";

        @Override public String id() { return ID; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new ShellHarness().installInfo(); }
        @Override public boolean supportsMcp() { return true; }
        @Override public boolean needsProvider() { return false; }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            String script = ctx.mcpServers().stream()
                    .map(m -> m instanceof McpServer.Stdio s
                            ? s.env().entrySet().stream().map(e -> "export " + e.getKey() + "=" + quote(e.getValue()) + "; ")
                                    .collect(Collectors.joining()) + quote(s.command()) + " " + s.args().stream().map(McpShell::quote).collect(Collectors.joining(" "))
                            : "curl -s -m 5 " + quote(((McpServer.Http) m).url().toString()) + " || echo UNREACHABLE")
                    .collect(Collectors.joining("\n"));
            return Invocation.builder(ctx.executable(), "-c", script.isEmpty() ? "true" : script)
                    .workingDir(ctx.workspace())
                    .env("SERVERS", ctx.mcpServers().stream().map(McpServer::name).collect(Collectors.joining(",")))
                    .build();
        }

        @Override
        public HarnessResult interpret(Execution ex) {
            return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model()).build();
        }

        private static String quote(String s) {
            return "'" + s.replace("'", "'\\''") + "'";
        }
    }

    private HarnessRunner runner(Path home, Sandbox sandbox) {
        return runner(home, sandbox, Map.of());
    }

    private HarnessRunner runner(Path home, Sandbox sandbox, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", home.toString());
        env.putAll(more);
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).environment(env).sandbox(sandbox)
                .sandboxNetwork(SandboxNetwork.METER_ONLY)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).add(new McpShell()).build())
                .installations(Installations.defaults()).providers(ShellHarness.provider()).build();
    }

    @Test
    void aHarnessWithoutMcpRefusesARunWithMcpServersBeforeAnythingIsWritten() throws Exception {
        Path base = GitFixture.repo(tmp.resolve("base"));
        McpServer server = McpServer.stdio("tickets", "/bin/true");
        try (HarnessRunner runner = runner(tmp.resolve("home"), Sandbox.OFF)) {
            assertThatThrownBy(() -> runner.run(RunSpec.builder(ShellHarness.ID, "local").prompt("p").baseline(base)
                    .mcpServer(server).build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("harness sh-test cannot be given MCP servers ([tickets])")
                    .hasMessageContaining("Harness.supportsMcp() is false")
                    .hasMessageContaining("(" + McpShell.ID + ")");
            assertThat(tmp.resolve("state/runs")).doesNotExist();
            assertThat(tmp.resolve("state/results")).doesNotExist();

            assertThat(Preflight.of(runner).mcp(ShellHarness.ID, List.of(server))).get().asString()
                    .contains("cannot be given MCP servers");
            assertThat(Preflight.of(runner).mcp(ShellHarness.ID, List.of())).isEmpty();
            assertThat(Preflight.of(runner).mcp(McpShell.ID, List.of(server))).isEmpty();
        }
    }

    @Test
    void aServersSecretComesFromTheRunnersEnvironmentReachesTheServerAndNothingTheRunWrites() throws Exception {
        Path base = GitFixture.repo(tmp.resolve("base"));
        Path out = Files.createDirectories(tmp.resolve("mcp-out"));
        String token = "tok-" + java.util.UUID.randomUUID();
        McpServer.Stdio server = McpServer.stdio("tickets", "/bin/sh", "-c",
                "echo \"token=$T_TOKEN\"; printf %s \"$T_TOKEN\" > " + out + "/got.txt")
                .withEnvFrom("T_TOKEN", "H4J_TEST_TICKETS_TOKEN");
        try (HarnessRunner runner = runner(tmp.resolve("home"), Sandbox.OFF, Map.of("H4J_TEST_TICKETS_TOKEN", token))) {
            RunRecord r = runner.run(RunSpec.builder(McpShell.ID, "none").prompt("p").baseline(base).mcpServer(server).build());

            assertThat(Files.readString(out.resolve("got.txt"))).as("the server got the value").isEqualTo(token);
            String transcript = Files.readString(r.resultDir().resolve("transcript.log"));
            assertThat(transcript).contains("token=***").doesNotContain(token);
            try (var files = Files.walk(tmp.resolve("state"))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1)).as(f.toString())
                            .doesNotContain(token);
                }
            }
        }
        Path state = tmp.resolve("state2");
        try (HarnessRunner other = HarnessRunner.builder().stateDir(state).environment(Map.of("HOME", tmp.toString(),
                "PATH", System.getenv("PATH"))).sandbox(Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new McpShell()).build())
                .installations(Installations.defaults()).providers(ShellHarness.provider()).build()) {
            assertThatThrownBy(() -> other.run(RunSpec.builder(McpShell.ID, "none").prompt("p").baseline(base)
                    .mcpServer(server).build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("MCP server 'tickets' takes the value of H4J_TEST_TICKETS_TOKEN from the environment");
            assertThat(state.resolve("runs")).doesNotExist();
            assertThat(state.resolve("results")).doesNotExist();
        }
    }

    @Test
    void aStdioServerRunsInTheSandboxSeeingItsOwnPathsAndNothingElseOfTheHiddenHome() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path base = GitFixture.repo(tmp.resolve("base"));
        Path home = tmp.resolve("home");
        Path data = Files.createDirectories(home.resolve("mcp-data"));
        Files.writeString(data.resolve("in.txt"), "from the server's data\n");
        Files.writeString(home.resolve("secret.txt"), "not for the server\n");
        Path out = Files.createDirectories(home.resolve("mcp-out"));
        Path undeclaredOut = Files.createDirectories(home.resolve("undeclared-out"));
        McpServer.Stdio shown = McpServer.stdio("shown", "/bin/sh", "-c",
                "cat " + data + "/in.txt > " + out + "/copied.txt; cat " + home + "/secret.txt >> " + out
                        + "/copied.txt 2>/dev/null || echo BLOCKED >> " + out + "/copied.txt")
                .withReadOnlyPath(data).withWritablePath(out);
        McpServer.Stdio undeclared = McpServer.stdio("undeclared", "/bin/sh", "-c", "echo hi > " + undeclaredOut + "/x.txt");
        try (HarnessRunner runner = runner(home, Sandbox.REQUIRED)) {
            RunRecord r = runner.run(RunSpec.builder(McpShell.ID, "none").prompt("p").baseline(base)
                    .mcpServer(shown).mcpServer(undeclared).build());

            assertThat(Files.readString(r.resultDir().resolve("meta.json"))).contains("\"mode\" : \"bubblewrap\"");
            assertThat(Files.readString(out.resolve("copied.txt")))
                    .isEqualTo("from the server's data\nBLOCKED\n");
            assertThat(undeclaredOut.resolve("x.txt")).as("a path the server did not declare").doesNotExist();
        }
    }

    @Test
    void anHttpServerOnTheHostsLoopbackIsReachedInAMeterOnlySandboxAtItsOwnAddressAndOthersAreNoted() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path base = GitFixture.repo(tmp.resolve("base"));
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/mcp", ex -> {
            byte[] body = "HELLO FROM THE HOST".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        http.start();
        try (HarnessRunner runner = runner(tmp.resolve("home"), Sandbox.REQUIRED)) {
            java.net.URI url = java.net.URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/mcp");
            RunRecord r = runner.run(RunSpec.builder(McpShell.ID, "none").prompt("p").baseline(base)
                    .mcpServer(McpServer.http("web", url))
                    .mcpServer(McpServer.http("far", java.net.URI.create("http://192.0.2.1:9/mcp"))).build());

            String transcript = Files.readString(r.resultDir().resolve("transcript.log"));
            assertThat(transcript).contains("HELLO FROM THE HOST").contains("UNREACHABLE");
            String meta = Files.readString(r.resultDir().resolve("meta.json"));
            assertThat(meta).contains("\"network\" : \"none\"").contains("\"mcp_forwarded\" : [ \"web\" ]")
                    .contains("HTTP MCP servers [far] cannot be reached");
        } finally {
            http.stop(0);
        }
    }
}
