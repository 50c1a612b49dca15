package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}), streamed and not (what codex-style clients
 * use). A namespace tool's members are offered as {@code <namespace>__<member>}; a call of one is a
 * {@code function_call} naming the member and its {@code namespace}.
 */
final class Responses implements Protocol {
    private static final long CREATED = 1_790_000_000L;

    private final ObjectMapper json;
    private final ChatCompletions errors;

    Responses(ObjectMapper json) {
        this.json = json;
        this.errors = new ChatCompletions(json);
    }

    @Override
    public String name() {
        return "responses";
    }

    @Override
    public ParsedRequest parse(JsonNode body, Headers headers) {
        List<ParsedRequest.ToolSpec> tools = new ArrayList<>();
        for (JsonNode t : body.path("tools")) {
            String name = t.hasNonNull("name") ? t.path("name").asText() : t.path("type").asText();
            if ("namespace".equals(t.path("type").asText())) {
                for (JsonNode member : t.path("tools")) {
                    String m = member.path("name").asText();
                    tools.add(new ParsedRequest.ToolSpec(name + "__" + m, member.path("parameters"), name, m));
                }
            } else if (!name.isEmpty()) {
                tools.add(new ParsedRequest.ToolSpec(name, t.path("parameters")));
            }
        }
        StringBuilder system = new StringBuilder(body.path("instructions").asText(""));
        JsonNode input = body.path("input");
        if (input.isArray()) {
            for (JsonNode item : input) {
                String role = item.path("role").asText();
                if (role.equals("system") || role.equals("developer")) {
                    system.append('\n').append(ParsedRequest.text(item.path("content")));
                }
            }
        }
        return new ParsedRequest(body.path("model").asText(null), body.path("stream").asBoolean(false), true, tools,
                system.toString(), input.toString(), Protocol.sessionId(headers), Protocol.userAgent(headers));
    }

    @Override
    public ObjectNode response(ParsedRequest req, Reply reply) {
        ObjectNode r = head(reply, "completed");
        ArrayNode output = r.putArray("output");
        for (ObjectNode item : items(req, reply)) {
            output.add(item);
        }
        r.set("usage", usage(reply.usage()));
        return r;
    }

    @Override
    public List<SseEvent> events(ParsedRequest req, Reply reply) {
        List<SseEvent> out = new ArrayList<>();
        int[] seq = {0};
        ObjectNode created = event("response.created", seq);
        created.set("response", head(reply, "in_progress"));
        out.add(sse(created));
        ObjectNode progress = event("response.in_progress", seq);
        progress.set("response", head(reply, "in_progress"));
        out.add(sse(progress));
        List<ObjectNode> items = items(req, reply);
        for (int i = 0; i < items.size(); i++) {
            ObjectNode done = items.get(i);
            String id = done.path("id").asText();
            ObjectNode added = event("response.output_item.added", seq).put("output_index", i);
            ObjectNode start = done.deepCopy().put("status", "in_progress");
            if ("message".equals(done.path("type").asText())) {
                start.putArray("content");
                added.set("item", start);
                out.add(sse(added));
                String text = done.path("content").get(0).path("text").asText();
                ObjectNode partAdded = event("response.content_part.added", seq).put("item_id", id)
                        .put("output_index", i).put("content_index", 0);
                partAdded.putObject("part").put("type", "output_text").put("text", "").putArray("annotations");
                out.add(sse(partAdded));
                for (String piece : Protocol.pieces(text)) {
                    out.add(sse(event("response.output_text.delta", seq).put("item_id", id).put("output_index", i)
                            .put("content_index", 0).put("delta", piece)));
                }
                out.add(sse(event("response.output_text.done", seq).put("item_id", id).put("output_index", i)
                        .put("content_index", 0).put("text", text)));
                ObjectNode partDone = event("response.content_part.done", seq).put("item_id", id)
                        .put("output_index", i).put("content_index", 0);
                partDone.set("part", done.path("content").get(0));
                out.add(sse(partDone));
            } else {
                start.put("arguments", "");
                added.set("item", start);
                out.add(sse(added));
                String args = done.path("arguments").asText();
                for (String piece : Protocol.pieces(args)) {
                    out.add(sse(event("response.function_call_arguments.delta", seq).put("item_id", id)
                            .put("output_index", i).put("delta", piece)));
                }
                out.add(sse(event("response.function_call_arguments.done", seq).put("item_id", id)
                        .put("output_index", i).put("arguments", args)));
            }
            ObjectNode itemDone = event("response.output_item.done", seq).put("output_index", i);
            itemDone.set("item", done);
            out.add(sse(itemDone));
        }
        ObjectNode completed = event("response.completed", seq);
        completed.set("response", response(req, reply));
        out.add(sse(completed));
        return out;
    }

    @Override
    public ObjectNode error(int status, String message) {
        return errors.error(status, message);
    }

    private List<ObjectNode> items(ParsedRequest req, Reply reply) {
        List<ObjectNode> items = new ArrayList<>();
        if (reply.text() != null) {
            ObjectNode m = json.createObjectNode().put("type", "message").put("id", "msg_scripted_" + reply.id())
                    .put("status", "completed").put("role", "assistant");
            m.putArray("content").addObject().put("type", "output_text").put("text", reply.text()).putArray("annotations");
            items.add(m);
        }
        for (Reply.ToolCall c : reply.toolCalls()) {
            ParsedRequest.ToolSpec spec = req.tools().stream().filter(t -> t.name().equals(c.name())).findFirst()
                    .orElse(null);
            ObjectNode call = json.createObjectNode().put("type", "function_call").put("id", "fc_" + c.id())
                    .put("call_id", "call_" + c.id());
            if (spec != null && spec.namespace() != null) {
                call.put("name", spec.member()).put("namespace", spec.namespace()); // a member of a namespace tool
            } else {
                call.put("name", c.name());
            }
            items.add(call.put("arguments", c.arguments()).put("status", "completed"));
        }
        return items;
    }

    private ObjectNode head(Reply reply, String status) {
        ObjectNode r = json.createObjectNode().put("id", "resp_scripted_" + reply.id()).put("object", "response")
                .put("created_at", CREATED).put("status", status).put("model", reply.model());
        r.putArray("output");
        return r;
    }

    private ObjectNode usage(Usage u) {
        ObjectNode n = json.createObjectNode();
        n.put("input_tokens", u.promptTokens());
        n.putObject("input_tokens_details").put("cached_tokens", u.cacheRead());
        n.put("output_tokens", u.output());
        n.putObject("output_tokens_details").put("reasoning_tokens", 0);
        n.put("total_tokens", u.promptTokens() + u.output());
        return n;
    }

    private ObjectNode event(String type, int[] seq) {
        return json.createObjectNode().put("type", type).put("sequence_number", seq[0]++);
    }

    private static SseEvent sse(ObjectNode n) {
        return new SseEvent(n.path("type").asText(), n.toString());
    }
}
