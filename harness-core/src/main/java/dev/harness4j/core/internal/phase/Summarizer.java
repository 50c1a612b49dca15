package dev.harness4j.core.internal.phase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.ResolvedProvider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One model call that turns a run's diff and transcript tail into a phase report: Anthropic
 * Messages ({@code POST /v1/messages}) when the provider serves that style, else OpenAI Chat
 * Completions ({@code POST /v1/chat/completions}), not streamed, with the JDK's {@link
 * HttpClient}, within one deadline for the whole exchange. The key goes in a header only; no
 * failure message holds it or the request. Thread-safe.
 */
final class Summarizer {
    /** The most diff text sent. */
    static final int MAX_DIFF_CHARS = 24_000;
    /** The most transcript text sent (its end). */
    static final int MAX_TRANSCRIPT_CHARS = 8_000;
    /** The most task text sent. */
    static final int MAX_TASK_CHARS = 4_000;
    /** The most answer read. */
    static final int MAX_ANSWER_CHARS = 64 * 1024;
    static final String ANTHROPIC_VERSION = "2023-06-01";

    static final String SYSTEM = """
            You read what a headless coding agent did in one step of a job and report on it. Answer with one JSON \
            object and nothing else, with exactly these keys: "completed" (true only if the task was fully done), \
            "commit_message" (one line that would describe the change in a commit, or null), "summary" (what was done, in a few \
            sentences), "next_phase_notes" (what the next step should know, or null), "blockers" (an array of \
            strings: what stood in the way; empty when nothing).""";

    /** What the summarizer is shown. */
    record Input(String task, String outcome, String diff, String transcriptTail) {}

    /** The claims, or why there are none; the call when an answer came (its tokens), else {@code null}. */
    record Answer(Claims claims, String problem, PhaseReport.SummarizerCall call) {
        Answer(Claims claims, String problem) {
            this(claims, problem, null);
        }
    }

    private final ObjectMapper mapper;
    private final HttpClient http;

    Summarizer(ObjectMapper mapper, Duration connectTimeout) {
        this.mapper = mapper;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Asks the model; never throws, an HTTP error, a timeout or an unusable answer is a problem. */
    Answer summarize(ResolvedProvider p, Input in, Duration timeout) {
        boolean anthropic = p.serves(ApiStyle.ANTHROPIC);
        HttpRequest request = request(p, anthropic, userText(in), timeout);
        CompletableFuture<HttpResponse<String>> call = http.sendAsync(request,
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            response = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            return new Answer(null, "no answer from " + request.uri() + " within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return new Answer(null, "interrupted while waiting for " + request.uri());
        } catch (ExecutionException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            if (c instanceof java.net.http.HttpTimeoutException && !(c instanceof java.net.http.HttpConnectTimeoutException)) {
                // the request's own timeout (the same duration) fired before the wait for it
                return new Answer(null, "no answer from " + request.uri() + " within " + timeout.toMillis() + " ms");
            }
            return new Answer(null, "calling " + request.uri() + " failed: " + c.getClass().getSimpleName()
                    + (c.getMessage() != null ? ": " + Claims.cut(c.getMessage(), 200) : ""));
        }
        if (response.statusCode() != 200) {
            return new Answer(null, request.uri() + " answered HTTP " + response.statusCode());
        }
        String text;
        PhaseReport.SummarizerCall used;
        try {
            JsonNode answer = mapper.readTree(Claims.cut(response.body(), MAX_ANSWER_CHARS));
            text = answerText(answer, anthropic);
            used = call(p, answer.path("usage"), anthropic);
        } catch (IOException e) {
            return new Answer(null, request.uri() + " answered a body that is not the expected JSON");
        }
        if (text == null) {
            return new Answer(null, request.uri() + " answered no text", used);
        }
        try {
            return new Answer(Claims.parse(mapper, jsonObjectIn(text), false), null, used);
        } catch (Claims.Invalid e) {
            return new Answer(null, "its answer is no valid report: " + e.getMessage(), used);
        }
    }

    private HttpRequest request(ResolvedProvider p, boolean anthropic, String user, Duration timeout) {
        ObjectNode body = mapper.createObjectNode();
        body.put("model", p.model());
        body.put("max_tokens", 1024);
        body.put("stream", false);
        var messages = body.putArray("messages");
        if (anthropic) {
            body.put("system", SYSTEM);
        } else {
            messages.addObject().put("role", "system").put("content", SYSTEM);
        }
        messages.addObject().put("role", "user").put("content", user);
        URI uri = URI.create(p.v1Url() + (anthropic ? "/messages" : "/chat/completions"));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("content-type", "application/json").header("accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (anthropic) {
            b.header("anthropic-version", ANTHROPIC_VERSION);
        }
        if (p.secret() != null) {
            if (anthropic && p.auth() == AuthScheme.API_KEY) {
                b.header("x-api-key", p.secret().reveal());
            } else {
                b.header("authorization", "Bearer " + p.secret().reveal());
            }
        }
        return b.build();
    }

    static String userText(Input in) {
        String diff = in.diff() == null || in.diff().isEmpty() ? "(no change)" : in.diff();
        if (diff.length() > MAX_DIFF_CHARS) {
            diff = diff.substring(0, MAX_DIFF_CHARS) + "\n[diff cut: " + (diff.length() - MAX_DIFF_CHARS) + " more chars]";
        }
        String tail = in.transcriptTail() == null ? "" : in.transcriptTail();
        if (tail.length() > MAX_TRANSCRIPT_CHARS) {
            tail = "[...]" + tail.substring(tail.length() - MAX_TRANSCRIPT_CHARS);
        }
        return "The task:\n" + Claims.cut(in.task(), MAX_TASK_CHARS) + "\n\nHow the run ended: " + in.outcome()
                + "\n\nThe diff of the step:\n" + diff + "\n\nThe end of the agent's transcript:\n" + tail
                + "\n\nAnswer with the JSON object only.";
    }

    /** The call with the tokens of the answer's {@code usage} (Messages or Chat Completions names); absent ones null. */
    static PhaseReport.SummarizerCall call(ResolvedProvider p, JsonNode usage, boolean anthropic) {
        return new PhaseReport.SummarizerCall(p.name(), p.model(),
                count(usage, anthropic ? "input_tokens" : "prompt_tokens"),
                count(usage, anthropic ? "output_tokens" : "completion_tokens"));
    }

    private static Long count(JsonNode usage, String field) {
        JsonNode n = usage.path(field);
        return n.isIntegralNumber() && n.asLong() >= 0 ? n.asLong() : null;
    }

    /** The text of a Messages or Chat Completions answer, or {@code null}. */
    private static String answerText(JsonNode n, boolean anthropic) {
        if (anthropic) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode block : n.path("content")) {
                if ("text".equals(block.path("type").asText()) && block.path("text").isTextual()) {
                    sb.append(block.get("text").textValue());
                }
            }
            return sb.length() == 0 ? null : sb.toString();
        }
        JsonNode content = n.path("choices").path(0).path("message").path("content");
        return content.isTextual() ? content.textValue() : null;
    }

    /** The outermost {@code {...}} in a text (a model may fence its JSON or say a word around it). */
    static String jsonObjectIn(String text) {
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        return start >= 0 && end > start ? text.substring(start, end + 1) : text;
    }
}
