package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.TrajectoryStep;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claude Code's stream-json, as a real run printed it, read as trajectory steps. */
class ClaudeTrajectoryTest {
    @TempDir Path tmp;

    private List<TrajectoryStep> steps(String stdout) {
        try (Stream<TrajectoryStep> s = new ClaudeCodeHarness().trajectory(Executions.in(tmp).stdout(stdout).build())
                .orElseThrow()) {
            return s.toList();
        }
    }

    @Test
    void aWriteRunIsAToolCallingStepWithItsResultThenTheAnswer() {
        List<TrajectoryStep> steps = steps(Executions.resource("captured/write-file.stdout"));

        assertThat(steps).hasSize(2);
        TrajectoryStep write = steps.get(0);
        assertThat(write.source()).isEqualTo(TrajectoryStep.Source.AGENT);
        assertThat(write.model()).isEqualTo("cap-write");
        assertThat(write.toolCalls()).extracting(TrajectoryStep.ToolCall::id, TrajectoryStep.ToolCall::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("toolu_scripted_1", "Write"));
        assertThat(write.toolCalls().get(0).arguments()).contains("\"content\":\"hello\\n\"");
        assertThat(write.results()).extracting(TrajectoryStep.ToolResult::callId).containsExactly("toolu_scripted_1");
        assertThat(write.results().get(0).content()).startsWith("File created successfully");
        assertThat(write.usage().input()).isEqualTo(100);
        assertThat(write.usage().cacheRead()).isEqualTo(30);
        assertThat(write.usage().output()).as("stream-json's output count is the stream's first, not its last")
                .isNull();
        assertThat(steps.get(1).message()).isEqualTo("Wrote hello.txt.");
        assertThat(steps.get(1).toolCalls()).isEmpty();
    }

    @Test
    void blocksOfOneMessageArePrintedAsLinesOfTheirOwnAndMakeOneStep() {
        String stdout = """
                {"type":"assistant","message":{"id":"m1","model":"x","content":[{"type":"thinking","thinking":"hm"}]}}
                {"type":"assistant","message":{"id":"m1","model":"x","content":[{"type":"text","text":"Look."}]}}
                {"type":"assistant","message":{"id":"m1","model":"x","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
                not json at all
                {"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.txt"}]}]}}
                {"type":"assistant","message":{"id":"m2","model":"<synthetic>","content":[{"type":"text","text":"API Error"}]}}
                """;

        List<TrajectoryStep> steps = steps(stdout);

        assertThat(steps).hasSize(1);
        assertThat(steps.get(0).reasoning()).isEqualTo("hm");
        assertThat(steps.get(0).message()).isEqualTo("Look.");
        assertThat(steps.get(0).toolCalls()).hasSize(1);
        assertThat(steps.get(0).results().get(0).content()).isEqualTo("a.txt");
    }
}
