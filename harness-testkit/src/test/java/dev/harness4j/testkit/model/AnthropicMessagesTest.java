package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Anthropic Messages, count_tokens, model lists and keys, spoken with the JDK HttpClient. */
class AnthropicMessagesTest extends ProtocolTest {
    private static final String TOOLS = "[{\"name\":\"Write\",\"input_schema\":{\"type\":\"object\",\"properties\":"
            + "{\"file_path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}}}},"
            + "{\"name\":\"Bash\",\"input_schema\":{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}}]";

    private static String request(String model, boolean stream, String messages) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":1000,\"stream\":" + stream
                + ",\"system\":[{\"type\":\"text\",\"text\":\"You are an agent.\\n - Primary working directory: /work/repo\\n\"}],"
                + "\"tools\":" + TOOLS + ",\"messages\":" + messages + "}";
    }

    private static final String FIRST = "[{\"role\":\"user\",\"content\":\"write hello\"}]";

    @Test
    void streamedWriteFileIsAWriteToolUseWithAnAbsolutePathAndTheFullEventSequence() throws Exception {
        server.script("m", Scenario.builder().writeFile("hello.txt", "hello\n").usage(100, 20, 30, 40).build());

        HttpResponse<String> r = http.post("/v1/messages?beta=true", request("m", true, FIRST));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        List<Http.Sse> events = Http.events(r.body());
        assertThat(events).extracting(Http.Sse::event).containsSubsequence("message_start", "content_block_start",
                "content_block_delta", "content_block_stop", "message_delta", "message_stop");
        assertThat(events.get(0).data().path("message").path("usage").path("input_tokens").asLong()).isEqualTo(100);
        assertThat(events.get(0).data().path("message").path("usage").path("cache_read_input_tokens").asLong()).isEqualTo(30);
        JsonNode block = events.stream().filter(e -> "content_block_start".equals(e.event())).findFirst().orElseThrow()
                .data().path("content_block");
        assertThat(block.path("type").asText()).isEqualTo("tool_use");
        assertThat(block.path("name").asText()).isEqualTo("Write");
        assertThat(block.path("id").asText()).startsWith("toolu_");
        String json = events.stream().filter(e -> "content_block_delta".equals(e.event()))
                .map(e -> e.data().path("delta").path("partial_json").asText()).collect(Collectors.joining());
        JsonNode input = Http.json(json);
        assertThat(input.path("file_path").asText()).isEqualTo("/work/repo/hello.txt");
        assertThat(input.path("content").asText()).isEqualTo("hello\n");
        JsonNode delta = events.stream().filter(e -> "message_delta".equals(e.event())).findFirst().orElseThrow().data();
        assertThat(delta.path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
        assertThat(delta.path("usage").path("output_tokens").asLong()).isEqualTo(20);
        assertThat(delta.path("usage").path("cache_creation_input_tokens").asLong()).isEqualTo(40);
    }

    @Test
    void nonStreamedSayIsATextMessageWithUsage() throws Exception {
        server.script("m", Scenario.builder().say("All good.").usage(7, 3, 0, 0).build());

        JsonNode msg = http.postJson("/v1/messages", request("m", false, FIRST));

        assertThat(msg.path("type").asText()).isEqualTo("message");
        assertThat(msg.path("model").asText()).isEqualTo("m");
        assertThat(msg.path("content").get(0).path("text").asText()).isEqualTo("All good.");
        assertThat(msg.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(msg.path("usage").path("input_tokens").asLong()).isEqualTo(7);
        assertThat(msg.path("usage").path("output_tokens").asLong()).isEqualTo(3);
    }

    @Test
    void shellBecomesABashToolUseAndTheNextTurnPlaysTheNextStepThenDone() throws Exception {
        server.script("m", Scenario.builder().shell("echo hi > hi.txt").say("Ran.").build());

        JsonNode first = http.postJson("/v1/messages", request("m", false, FIRST));
        JsonNode second = http.postJson("/v1/messages", request("m", false, "[{\"role\":\"user\",\"content\":\"x\"},"
                + "{\"role\":\"assistant\",\"content\":\"y\"},{\"role\":\"user\",\"content\":\"tool result\"}]"));
        JsonNode third = http.postJson("/v1/messages", request("m", false, "[{\"role\":\"user\",\"content\":\"again\"}]"));

        JsonNode use = first.path("content").get(0);
        assertThat(use.path("name").asText()).isEqualTo("Bash");
        assertThat(use.path("input").path("command").asText()).isEqualTo("echo hi > hi.txt");
        assertThat(second.path("content").get(0).path("text").asText()).isEqualTo("Ran.");
        assertThat(third.path("content").get(0).path("text").asText()).isEqualTo(Scenario.DONE);
        assertThat(server.played("m")).isEqualTo(2);
    }

    @Test
    void toolLessSideRequestOfClaudeCodeIsAnsweredBrieflyWithoutConsumingAStep() throws Exception {
        server.script("m", Scenario.builder().say("the scripted turn").build());
        String side = "{\"model\":\"m\",\"max_tokens\":50,\"system\":\"Summarise the topic in a few words\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

        JsonNode sideAnswer = http.postJson("/v1/messages", side, "user-agent", "claude-cli/2.1.197 (external, sdk-cli)");
        JsonNode turn = http.postJson("/v1/messages", request("m", false, FIRST));

        assertThat(sideAnswer.path("content").get(0).path("text").asText()).isNotEqualTo("the scripted turn");
        assertThat(turn.path("content").get(0).path("text").asText()).isEqualTo("the scripted turn");
        assertThat(server.requests()).extracting(RecordedRequest::kind)
                .containsExactly(RecordedRequest.Kind.SIDE_REQUEST, RecordedRequest.Kind.TURN);
    }

    @Test
    void aRepeatedRequestOfTheSameSessionReplaysTheTurnInsteadOfConsumingAStep() throws Exception {
        server.script("m", Scenario.builder().say("one").say("two").build());

        JsonNode a = http.postJson("/v1/messages", request("m", false, FIRST), "x-claude-code-session-id", "s1");
        JsonNode b = http.postJson("/v1/messages", request("m", false, FIRST), "x-claude-code-session-id", "s1");
        JsonNode c = http.postJson("/v1/messages", request("m", false, FIRST), "x-claude-code-session-id", "s2");

        assertThat(a.path("content").get(0).path("text").asText()).isEqualTo("one");
        assertThat(b.path("content").get(0).path("text").asText()).isEqualTo("one");
        assertThat(c.path("content").get(0).path("text").asText()).isEqualTo("two");
    }

    @Test
    void theRealClaudeCodeRequestResolvesWriteAgainstItsPrimaryWorkingDirectory() throws Exception {
        ObjectNode real;
        try (InputStream in = getClass().getResourceAsStream("/model-requests/claude-code-2.1.197-messages.json")) {
            real = (ObjectNode) Http.json(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        server.script(real.path("model").asText(), Scenario.builder().writeFile("hello.txt", "hi\n").build());
        real.put("stream", false);

        JsonNode msg = http.postJson("/v1/messages?beta=true", real.toString(), "user-agent", "claude-cli/2.1.197");

        JsonNode use = msg.path("content").get(0);
        assertThat(use.path("name").asText()).isEqualTo("Write");
        assertThat(use.path("input").path("file_path").asText()).isEqualTo("/tmp/ms-capture/repo-c/hello.txt");
    }

    @Test
    void countTokensAnswersAPositiveCount() throws Exception {
        JsonNode n = http.postJson("/v1/messages/count_tokens", "{\"model\":\"m\",\"messages\":" + FIRST + "}");

        assertThat(n.path("input_tokens").asLong()).isPositive();
    }

    @Test
    void anUnscriptedModelAnswers404InAnthropicsErrorShape() throws Exception {
        HttpResponse<String> r = http.post("/v1/messages", request("nope", false, FIRST));

        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode body = Http.json(r.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("type").asText()).isEqualTo("not_found_error");
        assertThat(body.path("error").path("message").asText()).contains("nope");
    }

    @Test
    void modelListsNameTheScriptedModelsAndAnswer401WithoutTheRequiredKey() throws Exception {
        server.script("alpha", Scenario.empty()).script("beta", Scenario.empty()).requireKey("sk-right");

        assertThat(http.get("/v1/models").statusCode()).isEqualTo(401);
        assertThat(http.get("/v1/models", "x-api-key", "sk-wrong").statusCode()).isEqualTo(401);
        assertThat(http.get("/api/tags", "authorization", "Bearer sk-wrong").statusCode()).isEqualTo(401);
        HttpResponse<String> models = http.get("/v1/models", "x-api-key", "sk-right");
        HttpResponse<String> tags = http.get("/api/tags", "authorization", "Bearer sk-right");

        assertThat(models.statusCode()).isEqualTo(200);
        assertThat(Http.json(models.body()).path("data").findValuesAsText("id")).containsExactly("alpha", "beta");
        assertThat(tags.statusCode()).isEqualTo(200);
        assertThat(Http.json(tags.body()).path("models").findValuesAsText("name")).containsExactly("alpha", "beta");
    }

    @Test
    void aModelCallWithTheWrongKeyIs401AndTheRecordKeepsHeaderNamesNotValues() throws Exception {
        server.script("m", Scenario.empty()).requireKey("sk-right");

        HttpResponse<String> r = http.post("/v1/messages", request("m", false, FIRST), "x-api-key", "sk-wrong-secret");

        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(Http.json(r.body()).path("error").path("type").asText()).isEqualTo("authentication_error");
        RecordedRequest rec = server.requests().get(0);
        assertThat(rec.authHeaders()).containsExactly("x-api-key");
        assertThat(rec.status()).isEqualTo(401);
        assertThat(rec.model()).isEqualTo("m");
        assertThat(rec.tools()).containsExactly("Write", "Bash");
        assertThat(rec.toString()).doesNotContain("sk-wrong-secret").doesNotContain("sk-right");
    }

    @Test
    void providerPointsAtTheServerWithTheRequiredKey() {
        server.requireKey("sk-right");

        dev.harness4j.api.ResolvedProvider p = server.provider("m");

        assertThat(p.baseUrl()).isEqualTo(server.baseUrl());
        assertThat(p.secret().reveal()).isEqualTo("sk-right");
        assertThat(p.model()).isEqualTo("m");
        assertThat(p.serves(dev.harness4j.api.ApiStyle.ANTHROPIC)).isTrue();
        assertThat(p.serves(dev.harness4j.api.ApiStyle.OPENAI)).isTrue();
    }
}
