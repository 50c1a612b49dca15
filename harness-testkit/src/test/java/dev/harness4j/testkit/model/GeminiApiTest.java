package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Google's Gemini API, spoken with the JDK HttpClient. */
class GeminiApiTest extends ProtocolTest {
    private static final String STREAM = "/v1beta/models/m:streamGenerateContent?alt=sse";
    private static final String UNARY = "/v1beta/models/m:generateContent";
    private static final String TOOLS = "[{\"functionDeclarations\":["
            + "{\"name\":\"run_shell_command\",\"parametersJsonSchema\":{\"type\":\"object\",\"properties\":"
            + "{\"command\":{\"type\":\"string\"},\"description\":{\"type\":\"string\"}}}},"
            + "{\"name\":\"write_file\",\"parametersJsonSchema\":{\"type\":\"object\",\"properties\":"
            + "{\"file_path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}}}}]}]";
    private static final String REQUEST = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"go\"}]}],"
            + "\"systemInstruction\":{\"role\":\"user\",\"parts\":[{\"text\":\"You are Gemini CLI.\"}]},"
            + "\"tools\":" + TOOLS + "}";

    @Test
    void streamedTextComesInSeveralChunksTheLastWithFinishReasonUsageAndModel() throws Exception {
        server.script("m", Scenario.builder().say("Hello there.").usage(100, 20, 30, 0).build());

        List<Http.Sse> events = Http.events(http.post(STREAM, REQUEST).body());

        assertThat(events).hasSizeGreaterThan(1).allSatisfy(e -> {
            assertThat(e.event()).isNull();
            assertThat(e.data().path("modelVersion").asText()).isEqualTo("m");
        });
        String text = events.stream().map(e -> e.data().path("candidates").get(0).path("content").path("parts"))
                .flatMap(parts -> java.util.stream.StreamSupport.stream(parts.spliterator(), false))
                .map(p -> p.path("text").asText()).collect(Collectors.joining());
        assertThat(text).isEqualTo("Hello there.");
        JsonNode last = events.get(events.size() - 1).data();
        assertThat(last.path("candidates").get(0).path("finishReason").asText()).isEqualTo("STOP");
        JsonNode usage = last.path("usageMetadata");
        assertThat(usage.path("promptTokenCount").asLong()).isEqualTo(130);
        assertThat(usage.path("cachedContentTokenCount").asLong()).isEqualTo(30);
        assertThat(usage.path("candidatesTokenCount").asLong()).isEqualTo(20);
        assertThat(usage.path("totalTokenCount").asLong()).isEqualTo(150);
        assertThat(server.requests().get(0).protocol()).isEqualTo("gemini");
        assertThat(server.requests().get(0).model()).isEqualTo("m");
        assertThat(server.requests().get(0).stream()).isTrue();
        assertThat(server.requests().get(0).tools()).containsExactly("run_shell_command", "write_file");
    }

    @Test
    void streamedShellIsAWholeFunctionCallPart() throws Exception {
        server.script("m", Scenario.builder().shell("echo hi").build());

        List<Http.Sse> events = Http.events(http.post(STREAM, REQUEST).body());

        JsonNode parts = events.get(events.size() - 1).data().path("candidates").get(0).path("content").path("parts");
        JsonNode call = parts.get(0).path("functionCall");
        assertThat(call.path("name").asText()).isEqualTo("run_shell_command");
        assertThat(call.path("args").path("command").asText()).isEqualTo("echo hi");
        assertThat(call.path("args").path("description").asText()).isNotEmpty();
    }

    @Test
    void nonStreamedWriteFileIsAFunctionCallWithObjectArgs() throws Exception {
        server.script("m", Scenario.builder().writeFile("x.txt", "x\n").build());

        JsonNode r = http.postJson(UNARY, REQUEST);

        JsonNode call = r.path("candidates").get(0).path("content").path("parts").get(0).path("functionCall");
        assertThat(call.path("name").asText()).isEqualTo("write_file");
        assertThat(call.path("args").path("file_path").asText()).isEqualTo("x.txt");
        assertThat(call.path("args").path("content").asText()).isEqualTo("x\n");
        assertThat(r.path("usageMetadata").path("candidatesTokenCount").asLong()).isEqualTo(Usage.DEFAULT.output());
        assertThat(r.path("usageMetadata").has("cachedContentTokenCount")).isFalse();
        assertThat(server.requests().get(0).stream()).isFalse();
    }

    @Test
    void theModelComesFromThePathNotTheBody() throws Exception {
        server.script("other", Scenario.builder().say("from other").answerAs("other-001").build());

        JsonNode r = http.postJson("/v1beta/models/other:generateContent",
                "{\"model\":\"m\",\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"go\"}]}]}");

        assertThat(r.path("modelVersion").asText()).isEqualTo("other-001");
        assertThat(server.requests().get(0).model()).isEqualTo("other");
    }

    @Test
    void rateLimitIsGooglesErrorShapeWithRetryAfter() throws Exception {
        server.script("m", Scenario.builder().failRateLimited(Duration.ofSeconds(7)).say("after").build());

        HttpResponse<String> first = http.post(STREAM, REQUEST);

        assertThat(first.statusCode()).isEqualTo(429);
        assertThat(first.headers().firstValue("retry-after")).hasValue("7");
        JsonNode error = Http.json(first.body()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(429);
        assertThat(error.path("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.path("message").asText()).isNotEmpty();
        assertThat(http.postJson(UNARY, REQUEST).path("candidates").get(0).path("content").path("parts").get(0)
                .path("text").asText()).isEqualTo("after");
    }

    @Test
    void dropConnectionCutsTheStreamMidway() throws Exception {
        server.script("m", Scenario.builder().dropConnection().say("whole").build());

        assertThatThrownBy(() -> http.post(STREAM, REQUEST)).isInstanceOf(IOException.class);
        assertThat(server.requests().get(0).status()).isEqualTo(200);
    }

    @Test
    void theKeyIsTakenFromXGoogApiKeyOrTheKeyQueryParameter() throws Exception {
        server.requireKey("sekrit");
        server.script("m", Scenario.builder().say("a").say("b").build());
        Http h = http;
        {

            HttpResponse<String> none = h.post(UNARY, REQUEST);
            HttpResponse<String> header = h.post(UNARY, REQUEST, "x-goog-api-key", "sekrit");
            HttpResponse<String> query = h.post(UNARY + "?key=sekrit", REQUEST);

            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(Http.json(none.body()).path("error").path("status").asText()).isEqualTo("UNAUTHENTICATED");
            assertThat(header.statusCode()).isEqualTo(200);
            assertThat(query.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void countTokensAnswersATotal() throws Exception {
        JsonNode r = http.postJson("/v1beta/models/m:countTokens", REQUEST);

        assertThat(r.path("totalTokens").asLong()).isPositive();
    }

    @Test
    void anUnscriptedModelIsA404InGooglesShape() throws Exception {
        HttpResponse<String> r = http.post("/v1beta/models/nope:generateContent", REQUEST);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(Http.json(r.body()).path("error").path("status").asText()).isEqualTo("NOT_FOUND");
    }
}
