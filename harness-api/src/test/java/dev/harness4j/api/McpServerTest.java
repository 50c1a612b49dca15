package dev.harness4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class McpServerTest {

    private static RunSpec.Builder spec() {
        return RunSpec.builder("claude-code", "anthropic").prompt("p").baseline(Path.of("/src/repo"));
    }

    @Test
    void aStdioServerKeepsItsCommandArgsEnvAndPaths() {
        McpServer.Stdio s = McpServer.stdio("tickets", "/opt/t/bin/tickets", "--read-only")
                .withEnv("Z_URL", "http://z").withEnv("A_KEY", "k")
                .withReadOnlyPath(Path.of("/opt/t/lib/../lib")).withWritablePath(Path.of("/var/t"));

        assertThat(s.name()).isEqualTo("tickets");
        assertThat(s.args()).containsExactly("--read-only");
        assertThat(s.env().keySet()).as("sorted, so config files come out the same").containsExactly("A_KEY", "Z_URL");
        assertThat(s.readOnlyPaths()).containsExactly(Path.of("/opt/t/lib"));
        assertThat(s.writablePaths()).containsExactly(Path.of("/var/t"));
    }

    @Test
    void badNamesCommandsVariablesAndPathsAreRefusedSayingWhatIsAllowed() {
        assertThatThrownBy(() -> McpServer.stdio("my server", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'my server'").hasMessageContaining("letters, digits, '_' or '-'");
        assertThatThrownBy(() -> McpServer.stdio("a.b", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpServer.stdio("-a", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpServer.stdio("a".repeat(41), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpServer.stdio("ok", " ")).hasMessageContaining("needs a command");
        assertThatThrownBy(() -> McpServer.stdio("ok", "x").withEnv("1A", "v"))
                .hasMessageContaining("'1A' is not an environment variable name");
        assertThatThrownBy(() -> McpServer.stdio("ok", "x").withReadOnlyPath(Path.of("rel")))
                .hasMessageContaining("must be absolute: rel");
        assertThatThrownBy(() -> McpServer.http("ok", URI.create("file:///x"))).hasMessageContaining("http://");
        assertThatThrownBy(() -> McpServer.http("ok", URI.create("/mcp"))).hasMessageContaining("http://");
        assertThat(McpServer.http("web_1", URI.create("http://127.0.0.1:9/mcp")).url().getPort()).isEqualTo(9);
    }

    @Test
    void aVariableFromTheRunnersEnvironmentIsResolvedThereAndOnlyItsNameIsKept() {
        McpServer.Stdio s = McpServer.stdio("tickets", "/opt/t/bin/tickets").withEnv("T_URL", "http://t")
                .withEnvFrom("T_TOKEN", "MY_TICKETS_TOKEN").withReadOnlyPath(Path.of("/opt/t/lib"));
        assertThat(s.env()).containsOnlyKeys("T_URL");
        assertThat(s.envFrom()).containsExactly(java.util.Map.entry("T_TOKEN", "MY_TICKETS_TOKEN"));
        assertThat(s.readOnlyPaths()).as("kept through the copies").containsExactly(Path.of("/opt/t/lib"));

        java.util.Map<String, String> env = java.util.Map.of("MY_TICKETS_TOKEN", "tok-s3cret");
        McpServer.Stdio r = s.resolve(env::get);
        assertThat(r.env()).containsEntry("T_URL", "http://t").containsEntry("T_TOKEN", "tok-s3cret");
        assertThat(r.envFrom()).isEmpty();
        assertThat(McpServer.stdio("plain", "x").resolve(v -> null)).isEqualTo(McpServer.stdio("plain", "x"));

        assertThat(s.missingFrom(env::get)).isEmpty();
        assertThat(s.missingFrom(java.util.Map.of("MY_TICKETS_TOKEN", "")::get)).containsExactly("MY_TICKETS_TOKEN");
        assertThatThrownBy(() -> s.resolve(v -> null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MCP server 'tickets' takes the value of MY_TICKETS_TOKEN from the environment")
                .hasMessageContaining("set it in the runner's environment");
        assertThatThrownBy(() -> s.withEnvFrom("T_URL", "X")).hasMessageContaining("T_URL is given both a value");
        assertThatThrownBy(() -> s.withEnvFrom("OK", "not-a-name")).hasMessageContaining("'not-a-name' is not an environment variable name");
    }

    @Test
    void aRunSpecKeepsItsServersInOrderAndRefusesTwoOfOneName() {
        RunSpec s = spec().mcpServer(McpServer.stdio("b", "x")).mcpServer(McpServer.http("a", URI.create("http://h/")))
                .build();
        assertThat(s.mcpServers()).extracting(McpServer::name).containsExactly("b", "a");
        assertThat(s.toBuilder().build().mcpServers()).isEqualTo(s.mcpServers());
        assertThat(s.withPrompt("q").mcpServers()).hasSize(2);
        assertThat(spec().build().mcpServers()).isEmpty();

        assertThatThrownBy(() -> spec().mcpServer(McpServer.stdio("b", "x")).mcpServer(McpServer.stdio("b", "y")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("named 'b' was added already");
        assertThatThrownBy(() -> s.toBuilder().mcpServer(McpServer.stdio("a", "y")))
                .hasMessageContaining("'a'");
    }

    @Test
    void aContextCarriesTheServersAndAHarnessSaysNoToMcpByDefault() {
        McpServer m = McpServer.stdio("t", "x");
        HarnessContext c = HarnessContext.builder().prompt("p").provider(ResolvedProvider.cliLogin("p", "m"))
                .workspace(Path.of("/w")).scratchDir(Path.of("/s")).executable("x").mcpServers(java.util.List.of(m))
                .build();
        assertThat(c.mcpServers()).containsExactly(m);
        Harness h = new Harness() {
            public String id() { return "h"; }
            public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            public InstallInfo installInfo() { return new InstallInfo("h", java.util.List.of(), "none"); }
            public Invocation prepare(HarnessContext ctx) { throw new UnsupportedOperationException(); }
            public HarnessResult interpret(Execution ex) { throw new UnsupportedOperationException(); }
        };
        assertThat(h.supportsMcp()).isFalse();
    }
}
