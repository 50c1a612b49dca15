package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** OpenAI's Chat Completions API ({@code POST /v1/chat/completions}), streamed and not. */
final class ChatCompletions implements Protocol {
    private static final long CREATED = 1_790_000_000L;

    private final ObjectMapper json;

    ChatCompletions(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public String name() {
        return "chat-completions";
    }

    @Override
    public ParsedRequest parse(JsonNode body, Headers headers) {
        List<ParsedRequest.ToolSpec> tools = new ArrayList<>();
        for (JsonNode t : body.path("tools")) {
            JsonNode f = t.path("function");
            if (f.hasNonNull("name")) {
                tools.add(new ParsedRequest.ToolSpec(f.path("name").asText(), f.path("parameters")));
            }
        }
        StringBuilder system = new StringBuilder();
        for (JsonNode m : body.path("messages")) {
            String role = m.path("role").asText();
            if (role.equals("system") || role.equals("developer")) {
                system.append(ParsedRequest.text(m.path("content"))).append('\n');
            }
        }
        boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
        return new ParsedRequest(body.path("model").asText(null), body.path("stream").asBoolean(false), includeUsage,
                tools, system.toString(), body.path("messages").toString(), Protocol.sessionId(headers),
                Protocol.userAgent(headers));
    }

    @Override
    public ObjectNode response(ParsedRequest req, Reply reply) {
        ObjectNode root = head(reply, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (reply.text() != null) {
            message.put("content", reply.text());
        } else {
            message.putNull("content");
        }
        if (reply.usesTools()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (Reply.ToolCall c : reply.toolCalls()) {
                ObjectNode call = calls.addObject().put("id", "call_" + c.id()).put("type", "function");
                call.putObject("function").put("name", c.name()).put("arguments", c.arguments());
            }
        }
        choice.put("finish_reason", finishReason(reply));
        root.set("usage", usage(reply.usage()));
        return root;
    }

    @Override
    public List<SseEvent> events(ParsedRequest req, Reply reply) {
        List<SseEvent> out = new ArrayList<>();
        ObjectNode first = chunk(reply);
        delta(first).put("role", "assistant").put("content", "");
        out.add(data(first));
        if (reply.text() != null) {
            for (String piece : Protocol.pieces(reply.text())) {
                ObjectNode c = chunk(reply);
                delta(c).put("content", piece);
                out.add(data(c));
            }
        }
        int index = 0;
        for (Reply.ToolCall call : reply.toolCalls()) {
            ObjectNode c = chunk(reply);
            ObjectNode tc = delta(c).putArray("tool_calls").addObject().put("index", index)
                    .put("id", "call_" + call.id()).put("type", "function");
            tc.putObject("function").put("name", call.name()).put("arguments", "");
            out.add(data(c));
            for (String piece : Protocol.pieces(call.arguments())) {
                ObjectNode a = chunk(reply);
                delta(a).putArray("tool_calls").addObject().put("index", index)
                        .putObject("function").put("arguments", piece);
                out.add(data(a));
            }
            index++;
        }
        ObjectNode last = chunk(reply);
        delta(last);
        ((ObjectNode) last.path("choices").get(0)).put("finish_reason", finishReason(reply));
        out.add(data(last));
        if (req.includeUsage()) {
            ObjectNode u = head(reply, "chat.completion.chunk");
            u.putArray("choices");
            u.set("usage", usage(reply.usage()));
            out.add(data(u));
        }
        out.add(new SseEvent(null, "[DONE]"));
        return out;
    }

    @Override
    public ObjectNode error(int status, String text) {
        String message = Scenario.CONTEXT_LENGTH_MESSAGE.equals(text) ? Scenario.OPENAI_CONTEXT_LENGTH_MESSAGE : text;
        ObjectNode root = json.createObjectNode();
        ObjectNode err = root.putObject("error").put("message", message).put("type", errorType(status));
        err.putNull("param");
        String code = errorCode(status, message);
        if (code == null) {
            err.putNull("code");
        } else {
            err.put("code", code);
        }
        return root;
    }

    static String errorType(int status) {
        switch (status) {
            case 400: case 404: case 413: return "invalid_request_error";
            case 401: return "authentication_error";
            case 403: return "permission_error";
            case 429: return "rate_limit_error";
            case 529: return "overloaded_error";
            default: return "server_error";
        }
    }

    static String errorCode(int status, String message) {
        String m = message.toLowerCase(Locale.ROOT);
        if (status == 400 && (m.contains("context length") || m.contains("prompt is too long"))) {
            return "context_length_exceeded";
        }
        switch (status) {
            case 401: return "invalid_api_key";
            case 404: return "model_not_found";
            case 429: return "rate_limit_exceeded";
            default: return null;
        }
    }

    ObjectNode usage(Usage u) {
        ObjectNode n = json.createObjectNode();
        n.put("prompt_tokens", u.promptTokens());
        n.put("completion_tokens", u.output());
        n.put("total_tokens", u.promptTokens() + u.output());
        if (u.cacheRead() > 0) {
            n.putObject("prompt_tokens_details").put("cached_tokens", u.cacheRead());
        }
        return n;
    }

    private ObjectNode head(Reply reply, String object) {
        return json.createObjectNode().put("id", "chatcmpl-scripted-" + reply.id()).put("object", object)
                .put("created", CREATED).put("model", reply.model());
    }

    private ObjectNode chunk(Reply reply) {
        ObjectNode c = head(reply, "chat.completion.chunk");
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        choice.putObject("delta");
        choice.putNull("finish_reason");
        return c;
    }

    private static ObjectNode delta(ObjectNode chunk) {
        return (ObjectNode) chunk.path("choices").get(0).path("delta");
    }

    private static SseEvent data(ObjectNode n) {
        return new SseEvent(null, n.toString());
    }

    private static String finishReason(Reply reply) {
        return reply.usesTools() ? "tool_calls" : "stop";
    }
}
