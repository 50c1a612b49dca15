package dev.harness4j.testkit.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.McpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A scripted Model Context Protocol server: newline-delimited JSON-RPC 2.0 over stdio, answering
 * {@code initialize} (echoing the client's protocol version), {@code ping}, {@code tools/list}
 * (one tool, {@value #TOOL}, taking a string {@code note}) and {@code tools/call} of that tool,
 * which appends the call's arguments as one JSON line to {@code calls.jsonl} and answers the
 * scripted text. Every message it gets is logged to {@code messages.jsonl}, both in its directory
 * (when it cannot write there, it says so on stderr and answers all the same).
 *
 * <p>{@link #stdio(String)} gives the {@link McpServer} to put in a run: this JVM's {@code java}
 * with a class path of exactly the jars (or class dirs) this class needs, which the sandbox is
 * told to show read-only, and its directory shown read-write, so it starts inside the run's
 * sandbox as the agent's child.
 */
public final class ScriptedMcpServer {
    /** The one tool's name as the server lists it (the CLIs prefix it with the server's name). */
    public static final String TOOL = "record";
    /** The file each call's arguments are appended to, one JSON object per line. */
    public static final String CALLS = "calls.jsonl";
    /** The file every received message is appended to. */
    public static final String MESSAGES = "messages.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final String reply;

    private ScriptedMcpServer(Path dir, String reply) {
        this.dir = dir;
        this.reply = reply;
    }

    /**
     * A server that records into {@code dir} (created) and answers each call with {@code reply}.
     *
     * @param dir an absolute directory of the test's own
     * @param reply the text every {@value #TOOL} call answers
     * @return the server's description (nothing starts until a CLI starts it)
     */
    public static ScriptedMcpServer create(Path dir, String reply) {
        Objects.requireNonNull(reply, "reply");
        Path abs = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ScriptedMcpServer(abs, reply);
    }

    /**
     * The stdio server to give a run, under a name.
     *
     * @param name the server's name in the run (see {@link McpServer#NAME})
     * @return {@code java -cp <what this class needs> dev.harness4j.testkit.mcp.ScriptedMcpServer <dir> <reply>}
     */
    public McpServer.Stdio stdio(String name) {
        List<Path> cp = classPath();
        McpServer.Stdio s = McpServer.stdio(name, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-cp",
                String.join(java.io.File.pathSeparator, cp.stream().map(Path::toString).toList()),
                ScriptedMcpServer.class.getName(), dir.toString(), reply).withWritablePath(dir);
        for (Path p : cp) {
            s = s.withReadOnlyPath(p);
        }
        return s;
    }

    /** The directory it records into. */
    public Path dir() {
        return dir;
    }

    /** The text each call answers. */
    public String reply() {
        return reply;
    }

    /**
     * The arguments of every {@value #TOOL} call so far, in order.
     *
     * @return one JSON object per call
     */
    public List<JsonNode> calls() {
        return lines(dir.resolve(CALLS));
    }

    /**
     * The JSON-RPC methods received so far, in order ({@code initialize}, {@code
     * notifications/initialized}, {@code tools/list}, ...), to tell what a CLI did when no call came.
     *
     * @return the methods
     */
    public List<String> methods() {
        return lines(dir.resolve(MESSAGES)).stream().map(m -> m.path("method").asText("(response)")).toList();
    }

    private static List<JsonNode> lines(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The jars or class dirs holding this class, harness-api's {@link McpServer} and Jackson. */
    static List<Path> classPath() {
        Set<Path> out = new LinkedHashSet<>();
        for (Class<?> c : List.of(ScriptedMcpServer.class, McpServer.class, ObjectMapper.class, JsonFactory.class, JsonInclude.class)) {
            try {
                out.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath());
            } catch (URISyntaxException | NullPointerException e) {
                throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from", e);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Runs the server on stdin and stdout until stdin ends.
     *
     * @param args the directory to record into, and the reply text
     * @throws IOException when stdin or the record files fail
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: ScriptedMcpServer <dir> <reply>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            ObjectNode answer = respond(line, dir, args[1]);
            if (answer != null) {
                out.print(JSON.writeValueAsString(answer) + "\n");
                out.flush();
            }
        }
    }

    /**
     * Starts the same server on MCP's streamable HTTP transport, on a loopback port of its own:
     * each POSTed JSON-RPC message is answered with one JSON body (a notification with 202).
     *
     * @return the running server; close it when the test is done
     */
    public ScriptedMcpHttp startHttp() {
        return ScriptedMcpHttp.start(dir, reply);
    }

    /** The answer to one received message (logged first), or null for a notification or a blank line. */
    static ObjectNode respond(String line, Path dir, String reply) throws IOException {
        if (line.isBlank()) {
            return null;
        }
        append(dir.resolve(MESSAGES), line.strip().replace("\n", " "));
        JsonNode msg;
        try {
            msg = JSON.readTree(line);
        } catch (IOException e) {
            return error(JSON.nullNode(), -32700, "parse error: " + e.getMessage());
        }
        if (!msg.has("id") || !msg.has("method")) {
            return null; // a notification, or a response to nothing we asked
        }
        return handle(msg, dir, reply);
    }

    private static ObjectNode handle(JsonNode msg, Path dir, String reply) throws IOException {
        JsonNode id = msg.get("id");
        JsonNode params = msg.path("params");
        switch (msg.path("method").asText()) {
            case "initialize": {
                ObjectNode r = JSON.createObjectNode();
                r.put("protocolVersion", params.path("protocolVersion").asText("2025-06-18"));
                r.putObject("capabilities").putObject("tools").put("listChanged", false);
                r.putObject("serverInfo").put("name", "harness4j-scripted-mcp").put("version", "1.0.0");
                return result(id, r);
            }
            case "ping":
                return result(id, JSON.createObjectNode());
            case "tools/list": {
                ObjectNode r = JSON.createObjectNode();
                ObjectNode tool = r.putArray("tools").addObject();
                tool.put("name", TOOL);
                tool.put("description", "Records a note and answers what was scripted.");
                ObjectNode schema = tool.putObject("inputSchema");
                schema.put("type", "object");
                schema.putObject("properties").putObject("note").put("type", "string")
                        .put("description", "The note to record.");
                schema.putArray("required").add("note");
                return result(id, r);
            }
            case "tools/call": {
                if (!TOOL.equals(params.path("name").asText())) {
                    return error(id, -32602, "unknown tool: " + params.path("name").asText());
                }
                JsonNode arguments = params.path("arguments");
                append(dir.resolve(CALLS), JSON.writeValueAsString(arguments.isMissingNode()
                        ? JSON.createObjectNode() : arguments));
                ObjectNode r = JSON.createObjectNode();
                r.putArray("content").addObject().put("type", "text").put("text", reply);
                r.put("isError", false);
                return result(id, r);
            }
            case "resources/list":
                return result(id, JSON.createObjectNode().set("resources", JSON.createArrayNode()));
            case "resources/templates/list":
                return result(id, JSON.createObjectNode().set("resourceTemplates", JSON.createArrayNode()));
            case "prompts/list":
                return result(id, JSON.createObjectNode().set("prompts", JSON.createArrayNode()));
            default:
                return error(id, -32601, "method not found: " + msg.path("method").asText());
        }
    }

    private static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.putObject("error").put("code", code).put("message", message);
        return r;
    }

    /** Appends a line; a directory it may not write (a sandbox that does not show it) is said on stderr, not fatal. */
    private static void append(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("scripted MCP server: cannot record into " + file + ": " + e);
        }
    }
}
