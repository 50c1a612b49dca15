package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenAI Chat Completions, spoken with the JDK HttpClient. */
class ChatCompletionsTest extends ProtocolTest {
    private static final String TOOLS = "[{\"type\":\"function\",\"function\":{\"name\":\"write\",\"parameters\":"
            + "{\"type\":\"object\",\"properties\":{\"content\":{\"type\":\"string\"},\"filePath\":{\"type\":\"string\"}}}}},"
            + "{\"type\":\"function\",\"function\":{\"name\":\"bash\",\"parameters\":{\"type\":\"object\",\"properties\":"
            + "{\"command\":{\"type\":\"string\"},\"description\":{\"type\":\"string\"}}}}}]";
    private static final String MESSAGES = "[{\"role\":\"system\",\"content\":\"You are opencode.\\n<env>\\n"
            + "  Working directory: /work/oc\\n</env>\"},{\"role\":\"user\",\"content\":\"go\"}]";

    private static String request(boolean stream, boolean includeUsage) {
        return "{\"model\":\"m\",\"stream\":" + stream + (includeUsage ? ",\"stream_options\":{\"include_usage\":true}" : "")
                + ",\"tools\":" + TOOLS + ",\"messages\":" + MESSAGES + "}";
    }

    @Test
    void streamedWriteFileIsAToolCallDeltaSequenceWithAFinalUsageChunkAndDone() throws Exception {
        server.script("m", Scenario.builder().writeFile("a/b.txt", "content\n").usage(100, 20, 30, 0).build());

        HttpResponse<String> r = http.post("/v1/chat/completions", request(true, true));

        assertThat(r.statusCode()).isEqualTo(200);
        List<Http.Sse> events = Http.events(r.body());
        assertThat(events.get(events.size() - 1).raw()).isEqualTo("[DONE]");
        List<JsonNode> chunks = events.stream().filter(e -> e.data() != null).map(Http.Sse::data).collect(Collectors.toList());
        assertThat(chunks).allSatisfy(c -> assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk"));
        JsonNode firstCall = chunks.stream().map(c -> c.path("choices").path(0).path("delta").path("tool_calls").path(0))
                .filter(t -> t.has("id")).findFirst().orElseThrow();
        assertThat(firstCall.path("function").path("name").asText()).isEqualTo("write");
        String args = chunks.stream().map(c -> c.path("choices").path(0).path("delta").path("tool_calls").path(0)
                .path("function").path("arguments").asText("")).collect(Collectors.joining());
        JsonNode parsed = Http.json(args);
        assertThat(parsed.path("filePath").asText()).isEqualTo("/work/oc/a/b.txt");
        assertThat(parsed.path("content").asText()).isEqualTo("content\n");
        assertThat(chunks).anySatisfy(c -> assertThat(c.path("choices").path(0).path("finish_reason").asText()).isEqualTo("tool_calls"));
        JsonNode usage = chunks.get(chunks.size() - 1).path("usage");
        assertThat(chunks.get(chunks.size() - 1).path("choices")).isEmpty();
        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(130);
        assertThat(usage.path("completion_tokens").asLong()).isEqualTo(20);
        assertThat(usage.path("prompt_tokens_details").path("cached_tokens").asLong()).isEqualTo(30);
    }

    @Test
    void aWriteFileForAClientWithOnlyAShellToolIsACommandThatWritesTheFileByteForByte(@TempDir Path dir)
            throws Exception {
        String onlyBash = "[{\"type\":\"function\",\"function\":{\"name\":\"bash\",\"parameters\":{\"type\":"
                + "\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}}}]";
        String tricky = "{\"a\": \"$HOME `id` \\\\n\"}\nH4J_EOF\n'quoted'";
        server.script("m", Scenario.builder().writeFile("sub dir/it's.json", tricky).writeFile("b.txt", "line\n\n").build());
        String req = "{\"model\":\"m\",\"tools\":" + onlyBash + ",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";

        for (int i = 0; i < 2; i++) {
            JsonNode call = http.postJson("/v1/chat/completions", req).path("choices").path(0).path("message")
                    .path("tool_calls").path(0);
            assertThat(call.path("function").path("name").asText()).isEqualTo("bash");
            String command = Http.json(call.path("function").path("arguments").asText()).path("command").asText();
            Process p = new ProcessBuilder("bash", "-c", command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(out).isZero();
        }

        assertThat(Files.readString(dir.resolve("sub dir/it's.json"))).isEqualTo(tricky);
        assertThat(Files.readString(dir.resolve("b.txt"))).isEqualTo("line\n\n");
    }

    @Test
    void aWriteFileGetsTheAbsolutePathFromTheWorkingDirectoryQwenAndGeminiStateInAUserMessage() throws Exception {
        String writeFile = "[{\"type\":\"function\",\"function\":{\"name\":\"write_file\",\"parameters\":{\"type\":"
                + "\"object\",\"properties\":{\"file_path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}}}}}]";
        String messages = "[{\"role\":\"system\",\"content\":\"You are Qwen Code.\"},{\"role\":\"user\",\"content\":"
                + "\"This is the Qwen Code. I'm currently working in the directory: /work/q-ws\\nHere is the folder structure\"},"
                + "{\"role\":\"user\",\"content\":\"go\"}]";
        server.script("m", Scenario.builder().writeFile("src/a.txt", "a\n").build());

        JsonNode call = http.postJson("/v1/chat/completions", "{\"model\":\"m\",\"tools\":" + writeFile
                + ",\"messages\":" + messages + "}").path("choices").path(0).path("message").path("tool_calls").path(0);

        assertThat(Http.json(call.path("function").path("arguments").asText()).path("file_path").asText())
                .isEqualTo("/work/q-ws/src/a.txt");
    }

    @Test
    void aStreamWithoutIncludeUsageCarriesNoUsageChunk() throws Exception {
        server.script("m", Scenario.builder().say("hello").build());

        List<Http.Sse> events = Http.events(http.post("/v1/chat/completions", request(true, false)).body());

        assertThat(events).noneSatisfy(e -> assertThat(e.data() != null && e.data().has("usage")).isTrue());
        String text = events.stream().filter(e -> e.data() != null)
                .map(e -> e.data().path("choices").path(0).path("delta").path("content").asText(""))
                .collect(Collectors.joining());
        assertThat(text).isEqualTo("hello");
    }

    @Test
    void nonStreamedShellIsABashToolCallWithADescription() throws Exception {
        server.script("m", Scenario.builder().shell("ls -la").usage(5, 6, 0, 0).build());

        JsonNode r = http.postJson("/v1/chat/completions", request(false, false));

        JsonNode choice = r.path("choices").path(0);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("tool_calls");
        JsonNode call = choice.path("message").path("tool_calls").path(0);
        assertThat(call.path("id").asText()).startsWith("call_");
        assertThat(call.path("function").path("name").asText()).isEqualTo("bash");
        JsonNode args = Http.json(call.path("function").path("arguments").asText());
        assertThat(args.path("command").asText()).isEqualTo("ls -la");
        assertThat(args.path("description").asText()).isNotBlank();
        assertThat(r.path("usage").path("prompt_tokens").asLong()).isEqualTo(5);
        assertThat(r.path("usage").path("completion_tokens").asLong()).isEqualTo(6);
        assertThat(r.path("usage").has("prompt_tokens_details")).isFalse();
    }

    /** Cline's shell tool takes a list of whole command lines ({@code commands}), not an argv. */
    @Test
    void aShellForClinesRunCommandsToolIsOneCommandLineInItsCommandsList() throws Exception {
        String clineTools = "[{\"type\":\"function\",\"function\":{\"name\":\"run_commands\",\"parameters\":"
                + "{\"type\":\"object\",\"properties\":{\"commands\":{\"type\":\"array\",\"items\":{\"type\":"
                + "\"string\"}}}}}}]";
        server.script("m", Scenario.builder().shell("printf 'a b\\n' > x.txt").build());
        String req = "{\"model\":\"m\",\"tools\":" + clineTools + ",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";

        JsonNode call = http.postJson("/v1/chat/completions", req).path("choices").path(0).path("message")
                .path("tool_calls").path(0);

        assertThat(call.path("function").path("name").asText()).isEqualTo("run_commands");
        JsonNode args = Http.json(call.path("function").path("arguments").asText());
        assertThat(args.path("commands")).extracting(JsonNode::asText).containsExactly("printf 'a b\\n' > x.txt");
        assertThat(args.has("command")).isFalse();
    }

    /** Continue's write tool names its path {@code filepath}. */
    @Test
    void aWriteForContinuesWriteToolFillsItsFilepath() throws Exception {
        String continueTools = "[{\"type\":\"function\",\"function\":{\"name\":\"Write\",\"parameters\":"
                + "{\"type\":\"object\",\"properties\":{\"filepath\":{\"type\":\"string\"},\"content\":{\"type\":"
                + "\"string\"}}}}}]";
        server.script("m", Scenario.builder().writeFile("/ws/x.txt", "hi\n").build());
        String req = "{\"model\":\"m\",\"tools\":" + continueTools + ",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";

        JsonNode call = http.postJson("/v1/chat/completions", req).path("choices").path(0).path("message")
                .path("tool_calls").path(0);

        assertThat(call.path("function").path("name").asText()).isEqualTo("Write");
        JsonNode args = Http.json(call.path("function").path("arguments").asText());
        assertThat(args.path("filepath").asText()).isEqualTo("/ws/x.txt");
        assertThat(args.path("content").asText()).isEqualTo("hi\n");
        assertThat(args.has("file_path")).isFalse();
    }

    @Test
    void opencodesRealTitleRequestIsASideRequestThatConsumesNoStep() throws Exception {
        String title;
        try (InputStream in = getClass().getResourceAsStream("/model-requests/opencode-1.18.33-title.json")) {
            title = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        server.script("scripted-a", Scenario.builder().say("scripted").build());

        HttpResponse<String> r = http.post("/v1/chat/completions", title);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(server.requests()).extracting(RecordedRequest::kind).containsExactly(RecordedRequest.Kind.SIDE_REQUEST);
        assertThat(server.played("scripted-a")).isZero();
    }

    @Test
    void aidersRealMainRequestIsATurnAnsweredWithAWholeFileBlockAndItsCommitMessageRequestIsASideRequest()
            throws Exception {
        String main;
        try (InputStream in = getClass().getResourceAsStream("/model-requests/aider-0.86.2-whole-stream.json")) {
            main = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\"stream\": true", "\"stream\": false");
        }
        server.script("scripted-a", Scenario.builder().writeFile("hello.txt", "hello\n").build());
        String commit = "{\"model\":\"scripted-a\",\"messages\":[{\"role\":\"system\",\"content\":\"You are an expert"
                + " software engineer that generates concise, one-line Git commit messages based on the provided diffs.\"},"
                + "{\"role\":\"user\",\"content\":\"diff --git a/hello.txt b/hello.txt\"}]}";

        JsonNode turn = http.postJson("/v1/chat/completions", main, "user-agent", "OpenAI/Python 2.20.0");
        JsonNode side = http.postJson("/v1/chat/completions", commit, "user-agent", "OpenAI/Python 2.20.0");

        assertThat(turn.path("choices").path(0).path("message").path("content").asText())
                .isEqualTo("hello.txt\n```\nhello\n```\n");
        assertThat(side.path("choices").path(0).path("message").path("content").asText()).startsWith("chore:");
        assertThat(server.requests()).extracting(RecordedRequest::kind)
                .containsExactly(RecordedRequest.Kind.TURN, RecordedRequest.Kind.SIDE_REQUEST);
    }

    @Test
    void aToolLessRequestFromAPlainClientIsATurn() throws Exception {
        server.script("m", Scenario.builder().say("turn text").build());

        JsonNode r = http.postJson("/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(r.path("choices").path(0).path("message").path("content").asText()).isEqualTo("turn text");
        assertThat(server.played("m")).isEqualTo(1);
    }

    @Test
    void contextLengthFailureIsA400InOpenAisErrorShape() throws Exception {
        server.script("m", Scenario.builder().failContextLength().build());

        HttpResponse<String> r = http.post("/v1/chat/completions", request(true, true));

        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode err = Http.json(r.body()).path("error");
        assertThat(err.path("code").asText()).isEqualTo("context_length_exceeded");
        assertThat(err.path("message").asText()).contains("maximum context length");
    }
}
