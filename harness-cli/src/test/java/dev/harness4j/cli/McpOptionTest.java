package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.McpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --mcp NAME=COMMAND [ARG...]} and {@code --mcp NAME=URL}. */
class McpOptionTest {
    @TempDir Path tmp;

    @Test
    void aCommandIsSplitIntoWordsWithQuotesAndItsExistingAbsolutePathArgumentsAreShownReadOnly() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path jar = Files.writeString(tmp.resolve("a.jar"), "");
        McpServer.Stdio s = (McpServer.Stdio) McpOption.parse(
                "tickets=/usr/bin/java -cp " + jar + ":/no/such.jar 'Main Class' \"a b\" " + data + " /no/such/dir");

        assertThat(s.name()).isEqualTo("tickets");
        assertThat(s.command()).isEqualTo("/usr/bin/java");
        assertThat(s.args()).containsExactly("-cp", jar + ":/no/such.jar", "Main Class", "a b", data.toString(),
                "/no/such/dir");
        assertThat(s.readOnlyPaths()).containsExactly(jar, data);
    }

    @Test
    void anHttpUrlIsAnHttpServer() {
        McpServer.Http h = (McpServer.Http) McpOption.parse("web=http://127.0.0.1:8931/mcp");
        assertThat(h.name()).isEqualTo("web");
        assertThat(h.url().getPort()).isEqualTo(8931);
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> McpOption.parse("/usr/bin/server")).hasMessageContaining("NAME=COMMAND [ARG...]");
        assertThatThrownBy(() -> McpOption.parse("x= ")).hasMessageContaining("NAME=COMMAND [ARG...]");
        assertThatThrownBy(() -> McpOption.parse("x=cmd 'open")).hasMessageContaining("unclosed ' quote");
        assertThatThrownBy(() -> McpOption.parse("a b=cmd")).hasMessageContaining("'a b' is not allowed");
    }

    @Test
    void envFromNamesTheVariableOfAServerOfTheRun() {
        var servers = McpOption.withEnvFrom(java.util.List.of(McpOption.parse("tickets=/bin/t"),
                McpOption.parse("web=http://127.0.0.1:9/mcp")), java.util.List.of("tickets.T_TOKEN=MY_TOKEN"));
        assertThat(((McpServer.Stdio) servers.get(0)).envFrom()).containsEntry("T_TOKEN", "MY_TOKEN");
        assertThat(servers.get(1)).isInstanceOf(McpServer.Http.class);

        assertThatThrownBy(() -> McpOption.withEnvFrom(servers, java.util.List.of("T_TOKEN=MY")))
                .hasMessageContaining("is not SERVER.KEY=VARIABLE");
        assertThatThrownBy(() -> McpOption.withEnvFrom(servers, java.util.List.of("web.T=MY")))
                .hasMessageContaining("no stdio MCP server named 'web'");
        assertThatThrownBy(() -> McpOption.withEnvFrom(servers, java.util.List.of("tickets.T=bad-name")))
                .hasMessageContaining("'bad-name' is not an environment variable name");
    }
}
