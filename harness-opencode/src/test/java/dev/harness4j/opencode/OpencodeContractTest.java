package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Harness;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import java.nio.file.Files;
import java.util.List;

/**
 * The harness contract kit run for OpencodeHarness: offline checks, and three real runs of its CLI.
 * The completed and failing runs also carry opencode's own checks (exact diff, the scripted tokens
 * on the wire and in its own report, the requests it sent; a 401 is {@code auth}), so no other
 * test runs those scenarios again.
 */
class OpencodeContractTest extends HarnessContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected Harness harness() {
        return new OpencodeHarness();
    }

    @Override
    protected Scenario completedScenario() {
        return Scenario.builder()
                .writeFile("src/hello.txt", "hello from the script\nsecond line\n").usage(100, 20, 30, 0)
                .say("Wrote src/hello.txt.").usage(110, 5, 0, 0)
                .build();
    }

    @Override
    protected String expectedChange() {
        return "src/hello.txt";
    }

    /** Was OpencodeEndToEndTest.writeFileScenarioCompletesWithTheExactDiffAndTheScenarioTokens. */
    @Override
    protected void checkCompleted(RunRecord run, List<RecordedRequest> requests) throws Exception {
        JsonNode meta = JSON.readTree(run.metaFile().toFile());
        assertThat(meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("src/hello.txt");
        String patch = Files.readString(run.resultDir().resolve("diff.patch"));
        assertThat(patch).contains("+hello from the script", "+second line").doesNotContain("opencode");
        assertThat(meta.path("changes").path("insertions").asInt()).isEqualTo(2);
        assertThat(meta.path("changes").path("deletions").asInt()).isZero();
        JsonNode tokens = meta.path("tokens");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(100 + 110);
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("cache_write").isNull()).as("Chat Completions reports no cache writes").isTrue();
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = meta.path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        List<String> steps = new java.util.ArrayList<>(); // opencode's own per-step usage: the scripted one
        for (String line : Files.readAllLines(run.resultDir().resolve("transcript.log"))) {
            JsonNode e = line.startsWith("{") ? JSON.readTree(line) : null;
            if (e != null && "step_finish".equals(e.path("type").asText())) {
                JsonNode t = e.path("part").path("tokens");
                steps.add(t.path("input").asLong() + "/" + t.path("output").asLong() + "/"
                        + t.path("cache").path("read").asLong());
            }
        }
        assertThat(steps).containsExactly("100/20/30", "110/5/0");
        assertThat(meta.path("served_model").path("verdict").asText()).as("the wire names the answering model")
                .isEqualTo("match");
        assertThat(meta.path("summary").asText()).isEqualTo("Wrote src/hello.txt.");
        // --title stops opencode's title-generation call: only the session's own turns reach the endpoint
        assertThat(requests).extracting(RecordedRequest::kind).containsOnly(RecordedRequest.Kind.TURN).hasSize(2);
        assertThat(requests).allSatisfy(t -> {
            assertThat(t.path()).isEqualTo("/v1/chat/completions");
            assertThat(t.tools()).contains("write", "bash");
            assertThat(t.authHeaders()).containsExactly("authorization");
        });
        // the prompt came through stdin verbatim (an argv prompt would arrive wrapped in escaped quotes)
        assertThat(requests.get(0).body()).contains("Do the scripted task.")
                .doesNotContain("\\\"Do the scripted task.\\\"");
        for (String file : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(run.resultDir().resolve(file))).as(file).doesNotContain(ScriptedProvider.KEY);
        }
    }

    /** Was OpencodeEndToEndTest.wrongKeyEndsAuth. */
    @Override
    protected void checkFailing(RunRecord run, List<RecordedRequest> requests) throws Exception {
        JsonNode meta = JSON.readTree(run.metaFile().toFile());
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("auth");
        assertThat(meta.path("reason").asText()).contains("401");
    }
}
