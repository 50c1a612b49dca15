package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's Gemini API ({@code POST /v1beta/models/{model}:generateContent} and {@code
 * :streamGenerateContent?alt=sse}), what Gemini CLI speaks. Unlike the other protocols the model
 * and whether the answer streams come from the path, so one instance serves one request: {@link
 * #forPath} makes it.
 */
final class GeminiApi implements Protocol {
    /** {@code /v1beta/models/{model}:{method}} (also {@code v1}, {@code v1alpha}). */
    static final Pattern PATH = Pattern.compile("/v1(?:beta|alpha)?/models/([^/:]+):([A-Za-z]+)");

    private final ObjectMapper json;
    private final String model;
    private final boolean stream;

    private GeminiApi(ObjectMapper json, String model, boolean stream) {
        this.json = Objects.requireNonNull(json, "json");
        this.model = model;
        this.stream = stream;
    }

    /** The protocol for errors that come before a path is understood. */
    static GeminiApi plain(ObjectMapper json) {
        return new GeminiApi(json, null, false);
    }

    /**
     * The protocol for one request path, or {@code null} when the path is not a Gemini model call.
     *
     * @param path the request path, e.g. {@code /v1beta/models/gemini-2.5-pro:streamGenerateContent}
     */
    static GeminiApi forPath(ObjectMapper json, String path) {
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return null;
        }
        String method = m.group(2);
        if (method.equals("streamGenerateContent")) {
            return new GeminiApi(json, m.group(1), true);
        }
        return method.equals("generateContent") ? new GeminiApi(json, m.group(1), false) : null;
    }

    /** {@code GET /v1beta/models} (also {@code v1alpha}): Google's model list. */
    static final Pattern LIST_PATH = Pattern.compile("/v1(?:beta|alpha)/models");

    /** Whether the path is Google's model list, {@code /v1beta/models}. */
    static boolean isModelList(String path) {
        return LIST_PATH.matcher(path).matches();
    }

    /**
     * The answer to a model list, as Google gives it: {@code {"models":[{"name":"models/<id>", ...}]}}
     * in one page (no {@code nextPageToken}); or, for a key that is not the required one, Google's
     * own refusals: no key → 403 {@code PERMISSION_DENIED}, a wrong key → 400 {@code
     * INVALID_ARGUMENT} "API key not valid".
     *
     * @param models the ids served
     * @param key the key presented, or {@code null}
     * @param authorized whether the server accepts {@code key}
     * @return the HTTP status and the body
     */
    Listing modelList(List<String> models, String key, boolean authorized) {
        if (!authorized) {
            return key == null
                    ? new Listing(403, error(403, "Method doesn't allow unregistered callers (callers without"
                            + " established identity). Please use API Key or other form of API consumer identity to"
                            + " call this API."))
                    : new Listing(400, error(400, "API key not valid. Please pass a valid API key."));
        }
        ObjectNode root = json.createObjectNode();
        ArrayNode list = root.putArray("models");
        for (String m : models) {
            ObjectNode entry = list.addObject().put("name", "models/" + m).put("version", "001")
                    .put("displayName", m).put("inputTokenLimit", 1048576).put("outputTokenLimit", 65536);
            entry.putArray("supportedGenerationMethods").add("generateContent").add("countTokens");
        }
        return new Listing(200, root);
    }

    /** An HTTP status and the JSON body to send with it. */
    record Listing(int status, ObjectNode body) {}

    /** Whether the path is a Gemini {@code :countTokens} call. */
    static boolean isCountTokens(String path) {
        Matcher m = PATH.matcher(path);
        return m.matches() && m.group(2).equals("countTokens");
    }

    @Override
    public String name() {
        return "gemini";
    }

    @Override
    public ParsedRequest parse(JsonNode body, Headers headers) {
        List<ParsedRequest.ToolSpec> tools = new ArrayList<>();
        for (JsonNode t : body.path("tools")) {
            // Gemini CLI writes functionDeclarations; LiteLLM the proto name function_declarations,
            // which Google's API accepts as well
            JsonNode declarations = t.has("functionDeclarations") ? t.path("functionDeclarations")
                    : t.path("function_declarations");
            for (JsonNode f : declarations) {
                String name = f.path("name").asText("");
                if (!name.isEmpty()) {
                    // Gemini CLI sends JSON Schema as parametersJsonSchema; older clients as parameters
                    JsonNode schema = f.has("parametersJsonSchema") ? f.path("parametersJsonSchema") : f.path("parameters");
                    tools.add(new ParsedRequest.ToolSpec(name, schema));
                }
            }
        }
        String system = ParsedRequest.text(body.path("systemInstruction").path("parts"));
        return new ParsedRequest(model, stream, true, tools, system, body.path("contents").toString(),
                Protocol.sessionId(headers), Protocol.userAgent(headers));
    }

    @Override
    public ObjectNode response(ParsedRequest req, Reply reply) {
        ObjectNode r = chunk(reply, parts(reply), true);
        r.set("usageMetadata", usage(reply.usage()));
        return r;
    }

    @Override
    public List<SseEvent> events(ParsedRequest req, Reply reply) {
        List<SseEvent> out = new ArrayList<>();
        List<String> pieces = reply.text() == null ? List.of() : Protocol.pieces(reply.text());
        for (int i = 0; i + 1 < pieces.size(); i++) {
            ArrayNode parts = json.createArrayNode();
            parts.addObject().put("text", pieces.get(i));
            out.add(new SseEvent(null, chunk(reply, parts, false).toString()));
        }
        // the last text piece, the function calls (whole, as Google sends them), the finish reason and the usage
        ArrayNode last = json.createArrayNode();
        if (!pieces.isEmpty()) {
            last.addObject().put("text", pieces.get(pieces.size() - 1));
        }
        for (JsonNode p : parts(reply)) {
            if (p.has("functionCall")) {
                last.add(p);
            }
        }
        ObjectNode end = chunk(reply, last, true);
        end.set("usageMetadata", usage(reply.usage()));
        out.add(new SseEvent(null, end.toString()));
        return out;
    }

    /**
     * Google's error shape: {@code {"error":{"code":429,"message":..,"status":"RESOURCE_EXHAUSTED"}}}.
     */
    @Override
    public ObjectNode error(int status, String message) {
        ObjectNode root = json.createObjectNode();
        root.putObject("error").put("code", status).put("message", message).put("status", status(status));
        return root;
    }

    /** The answer to {@code :countTokens}: about four characters a token of the request's contents. */
    ObjectNode countTokens(JsonNode body) {
        long chars = body.path("contents").toString().length();
        return json.createObjectNode().put("totalTokens", Math.max(1, chars / 4));
    }

    /** Google's canonical status name for an HTTP status. */
    static String status(int http) {
        return switch (http) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> http >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
        };
    }

    private ArrayNode parts(Reply reply) {
        ArrayNode parts = json.createArrayNode();
        if (reply.text() != null) {
            parts.addObject().put("text", reply.text());
        }
        for (Reply.ToolCall c : reply.toolCalls()) {
            ObjectNode call = parts.addObject().putObject("functionCall");
            call.put("name", c.name());
            try {
                call.set("args", json.readTree(c.arguments()));
            } catch (IOException e) {
                throw new IllegalStateException("scripted tool arguments are not JSON: " + c.arguments(), e);
            }
        }
        return parts;
    }

    private ObjectNode chunk(Reply reply, ArrayNode parts, boolean finished) {
        ObjectNode r = json.createObjectNode();
        ObjectNode candidate = r.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content");
        content.set("parts", parts);
        content.put("role", "model");
        if (finished) {
            candidate.put("finishReason", "STOP");
        }
        candidate.put("index", 0);
        r.put("modelVersion", reply.model());
        r.put("responseId", "scripted_" + reply.id());
        return r;
    }

    /**
     * {@code promptTokenCount} counts all input, cached included ({@code input + cacheRead +
     * cacheWrite}); {@code cachedContentTokenCount} is the cached part and is left out when 0, as
     * Google does.
     */
    private ObjectNode usage(Usage u) {
        ObjectNode n = json.createObjectNode();
        n.put("promptTokenCount", u.promptTokens());
        n.put("candidatesTokenCount", u.output());
        if (u.cacheRead() > 0) {
            n.put("cachedContentTokenCount", u.cacheRead());
        }
        n.put("totalTokenCount", u.promptTokens() + u.output());
        return n;
    }
}
