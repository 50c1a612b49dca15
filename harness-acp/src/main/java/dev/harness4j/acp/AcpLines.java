package dev.harness4j.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** One line of an ACP agent's stdout read as a JSON-RPC message. */
final class AcpLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AcpLines() {}

    /** The line as a JSON-RPC 2.0 message object, or null when it is not one. */
    static JsonNode message(String line) {
        String t = line.strip();
        if (!t.startsWith("{")) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(t);
            return n != null && n.isObject() && "2.0".equals(n.path("jsonrpc").asText()) ? n : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** The {@code update} of a {@code session/update} notification, or null. */
    static JsonNode update(JsonNode msg) {
        if (msg == null || !"session/update".equals(msg.path("method").asText()) || msg.has("id")) {
            return null;
        }
        JsonNode u = msg.path("params").path("update");
        return u.isObject() ? u : null;
    }

    /** The text of a content block ({@code {type: text, text}}), or "". */
    static String text(JsonNode content) {
        if (content.isArray()) {
            StringBuilder b = new StringBuilder();
            content.forEach(c -> b.append(text(c)));
            return b.toString();
        }
        if (content.has("content") && !content.has("text")) {
            return text(content.path("content"));
        }
        return "text".equals(content.path("type").asText()) ? content.path("text").asText("") : "";
    }
}
