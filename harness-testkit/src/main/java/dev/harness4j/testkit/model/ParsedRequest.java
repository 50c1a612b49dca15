package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the server needs to know of one model request, whatever the protocol.
 *
 * @param model the model asked for, or {@code null}
 * @param stream whether the client asked for a streamed answer
 * @param includeUsage whether a streamed Chat Completions answer carries a usage chunk
 * @param tools the tools the client offers
 * @param systemText the system prompt(s), joined
 * @param conversation the conversation the client sent (messages or input), for repeat detection
 * @param sessionId the client's session header, or {@code null}
 * @param userAgent the client's {@code User-Agent}, or an empty string
 */
record ParsedRequest(String model, boolean stream, boolean includeUsage, List<ToolSpec> tools,
        String systemText, String conversation, String sessionId, String userAgent) {

    private static final Pattern WORKING_DIR = Pattern.compile(
            "(?m)^[\\s\\-*]*(?:Primary working directory|Working directory|Current working directory|cwd)\\s*:\\s*(\\S.*?)\\s*$");
    /**
     * Gemini CLI's and Qwen Code's session context, in a user message: "I'm currently working in
     * the directory: /x". In {@code conversation} it stands in JSON text, so the path ends at white
     * space, a quote or an escape (a directory with a space in its name is not found).
     */
    private static final Pattern WORKING_IN = Pattern.compile("working in the directory:\\s*(/[^\\s\"\\\\]+)");

    ParsedRequest {
        tools = List.copyOf(tools);
        systemText = Objects.requireNonNullElse(systemText, "");
        conversation = Objects.requireNonNullElse(conversation, "");
        userAgent = Objects.requireNonNullElse(userAgent, "");
    }

    /**
     * A tool the client offers: its name and its parameter schema ({@code properties}, ...). A tool
     * inside a namespace (the Responses API's {@code {"type": "namespace", "name": ns, "tools":
     * [...]}}, Codex's MCP servers) is named {@code <ns>__<member>}, and a call of it names the
     * member in the namespace.
     *
     * @param namespace the namespace, or {@code null} for a top-level tool
     * @param member the tool's own name in its namespace, or {@code null} for a top-level tool
     */
    record ToolSpec(String name, JsonNode schema, String namespace, String member) {
        ToolSpec(String name, JsonNode schema) {
            this(name, schema, null, null);
        }
    }

    /**
     * The working directory the client states in its prompts ({@code Primary working directory:
     * /x} for Claude Code, {@code Working directory: /x} for opencode, {@code I'm currently
     * working in the directory: /x} in a user message for Gemini CLI and Qwen Code), if any.
     */
    Optional<String> workingDirectory() {
        Matcher m = WORKING_DIR.matcher(systemText);
        if (m.find()) {
            return Optional.of(m.group(1));
        }
        for (String text : List.of(systemText, conversation)) {
            Matcher in = WORKING_IN.matcher(text);
            if (in.find()) {
                return Optional.of(in.group(1));
            }
        }
        return Optional.empty();
    }

    /** A fingerprint of the conversation within the client's session, or {@code null} without a session. */
    String repeatKey() {
        if (sessionId == null) {
            return null;
        }
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(sessionId.getBytes(StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update(conversation.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Whether this is a side request (title generation, a commit message, a summary) rather than
     * a conversation turn. The rule: a request that offers tools is always a turn. A tool-less
     * request is a side request when its system prompt asks for a title ({@code "title
     * generator"}, {@code "generate a title"}), a commit message or a summary, or when it comes
     * from a client whose real turns always offer tools (User-Agent {@code claude-cli/...} or
     * {@code opencode/...}). Any other tool-less request (aider, a plain HTTP client) is a turn.
     */
    boolean isSideRequest() {
        if (!tools.isEmpty()) {
            return false;
        }
        String s = systemText.toLowerCase(Locale.ROOT);
        if (s.contains("title generator") || s.contains("generate a title") || s.contains("thread title")
                || s.contains("commit message") || s.contains("summarize this partial conversation")
                || s.contains("summarize the conversation")) {
            return true;
        }
        String ua = userAgent.toLowerCase(Locale.ROOT);
        return ua.startsWith("claude-cli") || ua.startsWith("opencode");
    }

    /** The brief answer to a side request. */
    String sideAnswer() {
        return systemText.toLowerCase(Locale.ROOT).contains("commit message")
                ? "chore: apply scripted change" : "Scripted session";
    }

    /** Joins the text of a string or an array of {@code {text}} blocks. */
    static String text(JsonNode content) {
        if (content == null || content.isNull() || content.isMissingNode()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode block : content) {
                if (block.isTextual()) {
                    sb.append(block.asText()).append('\n');
                } else if (block.has("text")) {
                    sb.append(block.path("text").asText()).append('\n');
                }
            }
        }
        return sb.toString();
    }
}
