package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** OpenAI Responses, spoken with the JDK HttpClient. */
class ResponsesTest extends ProtocolTest {
    private static final String TOOLS = "[{\"type\":\"function\",\"name\":\"shell\",\"parameters\":{\"type\":\"object\","
            + "\"properties\":{\"command\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}},"
            + "{\"type\":\"function\",\"name\":\"write\",\"parameters\":{\"type\":\"object\",\"properties\":"
            + "{\"filePath\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}}}}]";

    private static String request(boolean stream) {
        return "{\"model\":\"m\",\"stream\":" + stream + ",\"instructions\":\"You are codex.\\nWorking directory: /w\","
                + "\"tools\":" + TOOLS + ",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"go\"}]}]}";
    }

    @Test
    void streamedTextCarriesTheFullEventSequenceAndUsage() throws Exception {
        server.script("m", Scenario.builder().say("Hello there.").usage(100, 20, 30, 0).build());

        List<Http.Sse> events = Http.events(http.post("/v1/responses", request(true)).body());

        assertThat(events).extracting(Http.Sse::event).containsSubsequence("response.created",
                "response.output_item.added", "response.output_text.delta", "response.output_item.done",
                "response.completed");
        assertThat(events).allSatisfy(e -> assertThat(e.data().path("type").asText()).isEqualTo(e.event()));
        String text = events.stream().filter(e -> "response.output_text.delta".equals(e.event()))
                .map(e -> e.data().path("delta").asText()).collect(Collectors.joining());
        assertThat(text).isEqualTo("Hello there.");
        JsonNode completed = events.get(events.size() - 1).data().path("response");
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed.path("usage").path("input_tokens").asLong()).isEqualTo(130);
        assertThat(completed.path("usage").path("input_tokens_details").path("cached_tokens").asLong()).isEqualTo(30);
        assertThat(completed.path("usage").path("output_tokens").asLong()).isEqualTo(20);
        assertThat(completed.path("usage").path("total_tokens").asLong()).isEqualTo(150);
    }

    @Test
    void streamedShellIsAFunctionCallWithArgumentDeltas() throws Exception {
        server.script("m", Scenario.builder().shell("echo hi").build());

        List<Http.Sse> events = Http.events(http.post("/v1/responses", request(true)).body());

        JsonNode added = events.stream().filter(e -> "response.output_item.added".equals(e.event())).findFirst()
                .orElseThrow().data().path("item");
        assertThat(added.path("type").asText()).isEqualTo("function_call");
        assertThat(added.path("name").asText()).isEqualTo("shell");
        String args = events.stream().filter(e -> "response.function_call_arguments.delta".equals(e.event()))
                .map(e -> e.data().path("delta").asText()).collect(Collectors.joining());
        assertThat(Http.json(args).path("command").toString()).isEqualTo("[\"bash\",\"-lc\",\"echo hi\"]");
        JsonNode done = events.stream().filter(e -> "response.output_item.done".equals(e.event())).findFirst()
                .orElseThrow().data().path("item");
        assertThat(done.path("arguments").asText()).isEqualTo(args);
        assertThat(done.path("call_id").asText()).startsWith("call_");
    }

    @Test
    void nonStreamedWriteFileIsAFunctionCallItem() throws Exception {
        server.script("m", Scenario.builder().writeFile("x.txt", "x\n").build());

        JsonNode r = http.postJson("/v1/responses", request(false));

        assertThat(r.path("object").asText()).isEqualTo("response");
        JsonNode item = r.path("output").get(0);
        assertThat(item.path("type").asText()).isEqualTo("function_call");
        assertThat(item.path("name").asText()).isEqualTo("write");
        JsonNode args = Http.json(item.path("arguments").asText());
        assertThat(args.path("filePath").asText()).isEqualTo("/w/x.txt");
        assertThat(args.path("content").asText()).isEqualTo("x\n");
        assertThat(r.path("usage").path("output_tokens").asLong()).isEqualTo(Usage.DEFAULT.output());
    }
}
