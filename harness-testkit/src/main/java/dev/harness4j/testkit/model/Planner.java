package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a scripted step into a reply that uses the client's own tools: {@code writeFile} becomes
 * a call of the offered write tool ({@code Write}, {@code write}, ...), {@code shell} a call of the
 * offered shell tool ({@code Bash}, {@code bash}, ...). A client that offers a shell tool but no
 * write tool (Codex's {@code exec_command}, mini-swe-agent's {@code bash}) gets {@code writeFile}
 * as a shell command that writes the file ({@link #writeCommand}). A client with neither gets
 * {@code writeFile} as a whole-file edit block in the text (the path on its own line, then a
 * fenced block with the whole content: aider's {@code whole} format) and {@code shell} as a
 * fenced {@code bash} block. {@code callTool} calls the offered tool of exactly that name with the
 * scripted arguments (or, when none is offered, answers a text listing the tools that were).
 */
final class Planner {
    private static final List<String> WRITE_TOOLS = List.of("Write", "write", "write_file", "create_file");
    private static final List<String> SHELL_TOOLS =
            List.of("Bash", "bash", "shell", "run_shell_command", "exec_command", "local_shell",
                    "run_commands"); // Cline's: {"commands": [<command>, ...]}
    private static final List<String> PATH_KEYS =
            List.of("file_path", "filePath", "filepath", "path", "filename", "file"); // filepath: Continue's Write
    private static final List<String> CONTENT_KEYS = List.of("content", "contents", "text");

    private final ObjectMapper json;

    Planner(ObjectMapper json) {
        this.json = json;
    }

    /** The reply for a resolved step whose action is {@code WriteFile}, {@code Shell} or {@code Say}. */
    Reply plan(long id, Step step, ParsedRequest req) {
        String model = step.answerAs() != null ? step.answerAs() : req.model();
        Step.Action action = step.action();
        if (action instanceof Step.Say say) {
            return new Reply(id, model, say.text(), List.of(), step.usage());
        }
        if (action instanceof Step.WriteFile wf) {
            Optional<ParsedRequest.ToolSpec> tool = find(req, WRITE_TOOLS);
            if (tool.isEmpty()) {
                return find(req, SHELL_TOOLS).isPresent()
                        ? plan(id, new Step(new Step.Shell(writeCommand(wf)), step.usage(), step.answerAs()), req)
                        : new Reply(id, model, wholeFileBlock(wf), List.of(), step.usage());
            }
            JsonNode props = tool.get().schema().path("properties");
            ObjectNode args = json.createObjectNode();
            args.put(firstKey(props, PATH_KEYS), absolute(wf.path(), req));
            args.put(firstKey(props, CONTENT_KEYS), wf.content());
            return call(id, model, tool.get().name(), args, step.usage());
        }
        if (action instanceof Step.Shell sh) {
            Optional<ParsedRequest.ToolSpec> tool = find(req, SHELL_TOOLS);
            if (tool.isEmpty()) {
                return new Reply(id, model, "```bash\n" + sh.command() + "\n```\n", List.of(), step.usage());
            }
            JsonNode props = tool.get().schema().path("properties");
            ObjectNode args = json.createObjectNode();
            String key = props.has("cmd") && !props.has("command") ? "cmd"
                    : props.has("commands") && !props.has("command") ? "commands" : "command";
            if ("commands".equals(key)) {
                args.putArray(key).add(sh.command()); // a list of whole command lines, not an argv
            } else if ("array".equals(props.path(key).path("type").asText())) {
                args.putArray(key).add("bash").add("-lc").add(sh.command());
            } else {
                args.put(key, sh.command());
            }
            if (props.has("description")) {
                args.put("description", "Run the scripted command");
            }
            return call(id, model, tool.get().name(), args, step.usage());
        }
        if (action instanceof Step.CallTool ct) {
            boolean offered = req.tools().stream().anyMatch(t -> t.name().equals(ct.tool()));
            if (!offered) {
                return new Reply(id, model, "Scripted step callTool(" + ct.tool() + ") cannot play: the client offered "
                        + "no tool of that name; it offered " + req.tools().stream().map(ParsedRequest.ToolSpec::name)
                        .toList(), List.of(), step.usage());
            }
            try {
                return call(id, model, ct.tool(), (ObjectNode) json.readTree(ct.arguments()), step.usage());
            } catch (com.fasterxml.jackson.core.JsonProcessingException | ClassCastException e) {
                throw new IllegalArgumentException("callTool(" + ct.tool() + ") arguments are not a JSON object: "
                        + ct.arguments(), e);
            }
        }
        throw new IllegalArgumentException("not an answering step: " + action);
    }

    /** aider's whole-file format: the path on its own line, then the whole content in a fence. */
    static String wholeFileBlock(Step.WriteFile wf) {
        String content = wf.content().endsWith("\n") || wf.content().isEmpty() ? wf.content() : wf.content() + "\n";
        return wf.path() + "\n```\n" + content + "```\n";
    }

    /**
     * A shell command that writes the file byte for byte: its directory made first, the content in
     * a quoted here-document (no expansion) whose delimiter does not occur in it. A content not
     * ending in a newline loses the newline the here-document adds with {@code truncate -s -1}.
     */
    static String writeCommand(Step.WriteFile wf) {
        String delim = "H4J_EOF";
        while (wf.content().contains(delim)) {
            delim = delim + "_";
        }
        String path = "'" + wf.path().replace("'", "'\\''") + "'";
        int slash = wf.path().lastIndexOf('/');
        String mkdir = slash > 0 ? "mkdir -p -- '" + wf.path().substring(0, slash).replace("'", "'\\''") + "' && " : "";
        boolean newline = wf.content().endsWith("\n");
        String body = newline ? wf.content() : wf.content() + "\n";
        String write = mkdir + "cat > " + path + " <<'" + delim + "'\n" + body + delim + "\n";
        return newline ? write : write + "truncate -s -1 -- " + path + "\n";
    }

    private Reply call(long id, String model, String tool, ObjectNode args, Usage usage) {
        return new Reply(id, model, null, List.of(new Reply.ToolCall("scripted_" + id, tool, args.toString())), usage);
    }

    private static String absolute(String path, ParsedRequest req) {
        if (path.startsWith("/")) {
            return path;
        }
        return req.workingDirectory()
                .map(dir -> dir.endsWith("/") ? dir + path : dir + "/" + path)
                .orElse(path);
    }

    private static String firstKey(JsonNode props, List<String> candidates) {
        for (String k : candidates) {
            if (props.has(k)) {
                return k;
            }
        }
        return candidates.get(0);
    }

    private static Optional<ParsedRequest.ToolSpec> find(ParsedRequest req, List<String> names) {
        for (String n : names) {
            for (ParsedRequest.ToolSpec t : req.tools()) {
                if (t.name().equals(n)) {
                    return Optional.of(t);
                }
            }
        }
        for (String n : names) {
            for (ParsedRequest.ToolSpec t : req.tools()) {
                if (t.name().toLowerCase(Locale.ROOT).equals(n.toLowerCase(Locale.ROOT))) {
                    return Optional.of(t);
                }
            }
        }
        return Optional.empty();
    }
}
