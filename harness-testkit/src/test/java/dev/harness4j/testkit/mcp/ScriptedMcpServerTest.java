package dev.harness4j.testkit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.McpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scripted MCP server as a real child process, spoken to over its stdio as a CLI would. */
class ScriptedMcpServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;

    @Test
    void itInitializesListsItsToolAndRecordsEachCallAnsweringTheScriptedText() throws Exception {
        ScriptedMcpServer mcp = ScriptedMcpServer.create(tmp.resolve("mcp"), "ticket 4711 is fixed");
        McpServer.Stdio s = mcp.stdio("probe");
        assertThat(s.readOnlyPaths()).as("the class path the sandbox must show").isNotEmpty();
        assertThat(s.writablePaths()).containsExactly(mcp.dir());

        List<String> argv = new ArrayList<>(List.of(s.command()));
        argv.addAll(s.args());
        Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<JsonNode> answers = new ArrayList<>();
        try (OutputStream in = p.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String msg : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\",\"params\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"record\","
                            + "\"arguments\":{\"note\":\"first\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"bogus/method\"}")) {
                in.write((msg + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                if (!msg.contains("notifications/")) {
                    answers.add(JSON.readTree(out.readLine()));
                }
            }
        }
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("it ends when stdin closes").isTrue();

        assertThat(answers.get(0).path("id").asInt()).isEqualTo(0);
        assertThat(answers.get(0).path("result").path("protocolVersion").asText()).isEqualTo("2025-03-26");
        assertThat(answers.get(0).path("result").path("capabilities").has("tools")).isTrue();
        assertThat(answers.get(1).path("id").asText()).isEqualTo("a");
        JsonNode tool = answers.get(1).path("result").path("tools").path(0);
        assertThat(tool.path("name").asText()).isEqualTo(ScriptedMcpServer.TOOL);
        assertThat(tool.path("inputSchema").path("properties").has("note")).isTrue();
        JsonNode call = answers.get(2).path("result");
        assertThat(call.path("content").path(0).path("text").asText()).isEqualTo("ticket 4711 is fixed");
        assertThat(call.path("isError").asBoolean(true)).isFalse();
        assertThat(answers.get(3).path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(answers.get(4).path("error").path("code").asInt()).isEqualTo(-32601);

        assertThat(mcp.calls()).hasSize(1);
        assertThat(mcp.calls().get(0).path("note").asText()).isEqualTo("first");
        assertThat(mcp.methods()).containsExactly("initialize", "notifications/initialized", "tools/list",
                "tools/call", "tools/call", "bogus/method");
    }

    @Test
    void onStreamableHttpItAnswersEachPostWithJsonANotificationWith202AndAGetWith405() throws Exception {
        ScriptedMcpServer mcp = ScriptedMcpServer.create(tmp.resolve("mcp-http"), "over http");
        try (ScriptedMcpHttp http = mcp.startHttp()) {
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            java.util.function.Function<String, java.net.http.HttpResponse<String>> post = body -> {
                try {
                    return client.send(java.net.http.HttpRequest.newBuilder(http.url())
                            .header("Content-Type", "application/json")
                            .header("Accept", "application/json, text/event-stream")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            var init = post.apply("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
            assertThat(init.statusCode()).isEqualTo(200);
            assertThat(init.headers().firstValue("content-type")).hasValue("application/json");
            assertThat(JSON.readTree(init.body()).path("result").path("protocolVersion").asText()).isEqualTo("2025-06-18");
            assertThat(post.apply("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
                    .isEqualTo(202);
            var call = post.apply("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"record\",\"arguments\":{\"note\":\"via http\"}}}");
            assertThat(JSON.readTree(call.body()).path("result").path("content").path(0).path("text").asText())
                    .isEqualTo("over http");
            assertThat(client.send(java.net.http.HttpRequest.newBuilder(http.url()).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(405);
            assertThat(http.server("web").url()).isEqualTo(http.url());
        }
        assertThat(mcp.calls()).extracting(c -> c.path("note").asText()).containsExactly("via http");
    }
}
