package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Anthropic's Messages API ({@code POST /v1/messages}), streamed and not. */
final class AnthropicMessages implements Protocol {
    private final ObjectMapper json;

    AnthropicMessages(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public String name() {
        return "anthropic-messages";
    }

    @Override
    public ParsedRequest parse(JsonNode body, Headers headers) {
        List<ParsedRequest.ToolSpec> tools = new ArrayList<>();
        for (JsonNode t : body.path("tools")) {
            if (t.hasNonNull("name")) {
                tools.add(new ParsedRequest.ToolSpec(t.path("name").asText(), t.path("input_schema")));
            }
        }
        StringBuilder system = new StringBuilder(ParsedRequest.text(body.path("system")));
        for (JsonNode m : body.path("messages")) {
            if ("system".equals(m.path("role").asText())) {
                system.append('\n').append(ParsedRequest.text(m.path("content")));
            }
        }
        return new ParsedRequest(body.path("model").asText(null), body.path("stream").asBoolean(false), true,
                tools, system.toString(), body.path("messages").toString(), Protocol.sessionId(headers),
                Protocol.userAgent(headers));
    }

    @Override
    public ObjectNode response(ParsedRequest req, Reply reply) {
        ObjectNode msg = message(reply);
        ArrayNode content = msg.putArray("content");
        if (reply.text() != null) {
            content.addObject().put("type", "text").put("text", reply.text());
        }
        for (Reply.ToolCall c : reply.toolCalls()) {
            content.addObject().put("type", "tool_use").put("id", "toolu_" + c.id()).put("name", c.name())
                    .set("input", parse(c.arguments()));
        }
        msg.put("stop_reason", stopReason(reply));
        msg.set("usage", usage(reply.usage(), reply.usage().output()));
        return msg;
    }

    @Override
    public List<SseEvent> events(ParsedRequest req, Reply reply) {
        List<SseEvent> out = new ArrayList<>();
        ObjectNode start = json.createObjectNode().put("type", "message_start");
        ObjectNode msg = message(reply);
        msg.putArray("content");
        msg.putNull("stop_reason");
        msg.set("usage", usage(reply.usage(), 1));
        start.set("message", msg);
        out.add(event("message_start", start));
        out.add(event("ping", json.createObjectNode().put("type", "ping")));
        int index = 0;
        if (reply.text() != null) {
            ObjectNode block = json.createObjectNode().put("type", "text").put("text", "");
            out.add(event("content_block_start", blockStart(index, block)));
            for (String piece : Protocol.pieces(reply.text())) {
                ObjectNode delta = json.createObjectNode().put("type", "text_delta").put("text", piece);
                out.add(event("content_block_delta", blockDelta(index, delta)));
            }
            out.add(event("content_block_stop", json.createObjectNode().put("type", "content_block_stop").put("index", index)));
            index++;
        }
        for (Reply.ToolCall c : reply.toolCalls()) {
            ObjectNode block = json.createObjectNode().put("type", "tool_use").put("id", "toolu_" + c.id())
                    .put("name", c.name());
            block.putObject("input");
            out.add(event("content_block_start", blockStart(index, block)));
            for (String piece : Protocol.pieces(c.arguments())) {
                ObjectNode delta = json.createObjectNode().put("type", "input_json_delta").put("partial_json", piece);
                out.add(event("content_block_delta", blockDelta(index, delta)));
            }
            out.add(event("content_block_stop", json.createObjectNode().put("type", "content_block_stop").put("index", index)));
            index++;
        }
        ObjectNode delta = json.createObjectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", stopReason(reply)).putNull("stop_sequence");
        delta.set("usage", usage(reply.usage(), reply.usage().output()));
        out.add(event("message_delta", delta));
        out.add(event("message_stop", json.createObjectNode().put("type", "message_stop")));
        return out;
    }

    @Override
    public ObjectNode error(int status, String message) {
        ObjectNode body = json.createObjectNode().put("type", "error");
        body.putObject("error").put("type", errorType(status)).put("message", message);
        return body;
    }

    /** Anthropic's error type for an HTTP status. */
    static String errorType(int status) {
        switch (status) {
            case 400: return "invalid_request_error";
            case 401: return "authentication_error";
            case 403: return "permission_error";
            case 404: return "not_found_error";
            case 413: return "request_too_large";
            case 429: return "rate_limit_error";
            case 529: return "overloaded_error";
            default: return "api_error";
        }
    }

    /** A rough token count for {@code count_tokens}: a quarter of the body's characters. */
    ObjectNode countTokens(JsonNode body) {
        long n = Math.max(1, (body.path("messages").toString().length() + body.path("system").toString().length()) / 4);
        return json.createObjectNode().put("input_tokens", n);
    }

    private ObjectNode message(Reply reply) {
        ObjectNode msg = json.createObjectNode();
        msg.put("id", "msg_scripted_" + reply.id()).put("type", "message").put("role", "assistant")
                .put("model", reply.model());
        msg.putNull("stop_sequence");
        return msg;
    }

    private ObjectNode usage(Usage u, long output) {
        ObjectNode n = json.createObjectNode();
        n.put("input_tokens", u.input());
        n.put("cache_creation_input_tokens", u.cacheWrite());
        n.put("cache_read_input_tokens", u.cacheRead());
        n.put("output_tokens", output);
        return n;
    }

    private static String stopReason(Reply reply) {
        return reply.usesTools() ? "tool_use" : "end_turn";
    }

    private ObjectNode blockStart(int index, ObjectNode block) {
        ObjectNode n = json.createObjectNode().put("type", "content_block_start").put("index", index);
        n.set("content_block", block);
        return n;
    }

    private ObjectNode blockDelta(int index, ObjectNode delta) {
        ObjectNode n = json.createObjectNode().put("type", "content_block_delta").put("index", index);
        n.set("delta", delta);
        return n;
    }

    private static SseEvent event(String name, ObjectNode data) {
        return new SseEvent(name, data.toString());
    }

    private JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
