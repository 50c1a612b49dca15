package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code callTool}: the model calls an offered tool by its exact name, in every API style the server speaks. */
class CallToolTest extends ProtocolTest {
    private static final String TOOL = "mcp__probe__record";
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"note\":{\"type\":\"string\"}}}";
    private static final String ARGS = "{\"note\":\"scripted note 17\"}";

    private void script() {
        server.script("m", Scenario.builder().callTool(TOOL, ARGS).build());
    }

    @Test
    void anthropicMessagesGetAToolUseBlock() throws Exception {
        script();
        JsonNode r = http.postJson("/v1/messages", "{\"model\":\"m\",\"max_tokens\":100,\"tools\":[{\"name\":\"Bash\","
                + "\"input_schema\":" + SCHEMA + "},{\"name\":\"" + TOOL + "\",\"input_schema\":" + SCHEMA + "}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}");
        JsonNode use = r.path("content").findParent("input");
        assertThat(use.path("type").asText()).isEqualTo("tool_use");
        assertThat(use.path("name").asText()).isEqualTo(TOOL);
        assertThat(use.path("input").path("note").asText()).isEqualTo("scripted note 17");
    }

    @Test
    void chatCompletionsGetAToolCall() throws Exception {
        script();
        JsonNode r = http.postJson("/v1/chat/completions", "{\"model\":\"m\",\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"" + TOOL + "\",\"parameters\":" + SCHEMA + "}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}");
        JsonNode call = r.path("choices").path(0).path("message").path("tool_calls").path(0).path("function");
        assertThat(call.path("name").asText()).isEqualTo(TOOL);
        assertThat(Http.json(call.path("arguments").asText()).path("note").asText()).isEqualTo("scripted note 17");
    }

    @Test
    void responsesGetAFunctionCallItem() throws Exception {
        script();
        JsonNode r = http.postJson("/v1/responses", "{\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"name\":\""
                + TOOL + "\",\"parameters\":" + SCHEMA + "}],\"input\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"input_text\",\"text\":\"go\"}]}]}");
        JsonNode call = r.path("output").findParent("arguments");
        assertThat(call.path("type").asText()).isEqualTo("function_call");
        assertThat(call.path("name").asText()).isEqualTo(TOOL);
        assertThat(Http.json(call.path("arguments").asText()).path("note").asText()).isEqualTo("scripted note 17");
    }

    @Test
    void aResponsesNamespaceMemberIsCalledByItsMemberNameInItsNamespace() throws Exception {
        script();
        JsonNode r = http.postJson("/v1/responses", "{\"model\":\"m\",\"tools\":[{\"type\":\"namespace\","
                + "\"name\":\"mcp__probe\",\"tools\":[{\"type\":\"function\",\"name\":\"record\",\"parameters\":"
                + SCHEMA + "}]}],\"input\":\"go\"}");
        JsonNode call = r.path("output").findParent("arguments");
        assertThat(call.path("name").asText()).isEqualTo("record");
        assertThat(call.path("namespace").asText()).isEqualTo("mcp__probe");
        assertThat(server.requests().get(0).tools()).containsExactly(TOOL);
    }

    @Test
    void geminiGetsAFunctionCallPart() throws Exception {
        script();
        JsonNode r = http.postJson("/v1beta/models/m:generateContent", "{\"contents\":[{\"role\":\"user\",\"parts\":"
                + "[{\"text\":\"go\"}]}],\"tools\":[{\"functionDeclarations\":[{\"name\":\"" + TOOL
                + "\",\"parametersJsonSchema\":" + SCHEMA + "}]}]}");
        JsonNode call = r.path("candidates").path(0).path("content").path("parts").path(0).path("functionCall");
        assertThat(call.path("name").asText()).isEqualTo(TOOL);
        assertThat(call.path("args").path("note").asText()).isEqualTo("scripted note 17");
    }

    @Test
    void aToolTheClientDoesNotOfferIsNamedInTheAnswerWithTheOffersAndBadArgumentsAreRefused() throws Exception {
        script();
        JsonNode r = http.postJson("/v1/chat/completions", "{\"model\":\"m\",\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"mcp__other__record\",\"parameters\":" + SCHEMA + "}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}");
        assertThat(r.path("choices").path(0).path("message").path("content").asText())
                .contains("callTool(" + TOOL + ") cannot play").contains("[mcp__other__record]");
        assertThat(server.requests().get(0).tools()).isEqualTo(List.of("mcp__other__record"));

        assertThatThrownBy(() -> Scenario.builder().callTool(TOOL, "[1]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JSON object");
    }
}
