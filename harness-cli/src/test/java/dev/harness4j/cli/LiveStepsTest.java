package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.HarnessRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps {@code serve} shows of a running run: Claude Code's adapter parses the stream-json
 * written so far (a half-written last line skipped), a harness without a structured stream gets
 * one step per answered model call from the meter's records, and the meter line never prints an
 * unmeasured figure as 0.
 */
class LiveStepsTest {
    @TempDir Path io;
    private final LiveSteps steps = new LiveSteps(HarnessRegistry.fromServices());

    @Test
    void claudeCodesOutputSoFarIsParsedByItsAdapterAndAHalfLineIsSkipped() throws Exception {
        Files.writeString(io.resolve("stdout.log"), String.join("\n",
                "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s1\",\"model\":\"scripted-a\"}",
                "{\"type\":\"assistant\",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"scripted-a\","
                        + "\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Write\",\"input\":"
                        + "{\"file_path\":\"hello.txt\",\"content\":\"hello\\n\"}}],\"usage\":{\"input_tokens\":100,"
                        + "\"output_tokens\":1}},\"session_id\":\"s1\"}",
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                        + "\"tool_use_id\":\"t1\",\"content\":\"File created\"}]},\"session_id\":\"s1\"}",
                "{\"type\":\"assistant\",\"message\":{\"id\":\"m2\",\"role\":\"assist"));
        List<String> shown = steps.steps("claude-code", io);
        assertThat(shown).isNotEmpty();
        assertThat(String.join("\n", shown)).contains("[Write ").contains("hello.txt").contains("File created");
    }

    @Test
    void aHarnessWithoutAStreamGetsOneStepPerAnsweredModelCallFromTheMeter() throws Exception {
        Files.writeString(io.resolve("stdout.log"), "aider prints prose\n");
        Files.writeString(io.resolve("requests.jsonl"), String.join("\n",
                "{\"status\":200,\"model_request\":true,\"requested_model\":\"scripted-a\",\"answered_model\":\"scripted-a\","
                        + "\"measured\":true,\"usage\":{\"input\":120,\"output\":7},\"cost_usd\":0.000465}",
                "{\"status\":429,\"model_request\":true,\"requested_model\":\"scripted-a\",\"measured\":false,\"usage\":{}}",
                "{\"status\":200,\"model_request\":false,\"path\":\"/v1/models\",\"usage\":{}}",
                "{\"status\":200,\"model_request\":true,\"requested_model\":\"scripted-a\",\"measured\":false,\"usage\":{}}",
                "{\"status\":2"));
        assertThat(steps.steps("aider", io)).containsExactly("agent (scripted-a): a model call, 120 in, 7 out",
                "agent (scripted-a): a model call, unmeasured in, unmeasured out");
        assertThat(steps.steps(null, io)).hasSize(2);
        assertThat(LiveRunPage.meter(io, null)).isEqualTo(
                "model requests so far 3 · tokens 120 in, 7 out (2 requests unmeasured) · cost $0.000465");
    }

    @Test
    void nothingMeasuredYetIsUnmeasuredNotZero() throws Exception {
        assertThat(steps.steps("claude-code", io)).isEmpty();
        assertThat(LiveRunPage.meter(io, null)).isEqualTo("model requests so far 0 · tokens unmeasured · cost unmeasured");
        Files.writeString(io.resolve("requests.jsonl"),
                "{\"status\":503,\"model_request\":true,\"measured\":false,\"usage\":{}}\n");
        assertThat(LiveRunPage.meter(io, null)).isEqualTo("model requests so far 1 · tokens unmeasured · cost unmeasured");
    }
}
