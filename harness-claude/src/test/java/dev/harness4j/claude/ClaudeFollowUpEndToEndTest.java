package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-up prompts with the real {@code claude}: a kept run's session continued with {@code
 * --resume} in the same workspace, through the meter, against the scripted model server.
 */
@RealCli
class ClaudeFollowUpEndToEndTest {
    private static final String KEY = ScriptedProvider.KEY;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static ProviderResolver provider() {
        return new ScriptedProvider(server, EnumSet.of(ApiStyle.ANTHROPIC));
    }

    private static RunSpec spec(Path baseline, String model, String prompt) {
        return RunSpec.builder(ClaudeCodeHarness.ID, "scripted").model(model).prompt(prompt).baseline(baseline)
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)))
                .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build();
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        String text = Files.readString(r.resultDir().resolve("meta.json"));
        assertThat(text).doesNotContain(KEY);
        return JSON.readTree(text);
    }

    private static List<RecordedRequest> turns(String model) {
        return server.requests(RecordedRequest.Kind.TURN).stream().filter(t -> model.equals(t.model())).toList();
    }

    @Test
    void aFollowUpContinuesTheSessionInTheKeptWorkspaceAndItsDiffStartsAtThePreviousRunsEnd() throws Exception {
        server.script("follow-up", Scenario.builder()
                .writeFile("first.txt", "one\n").say("Wrote first.txt.")
                .writeFile("second.txt", "two\n").say("Wrote second.txt.").build());
        Path baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).providers(provider())
                .keepWorkspace(Duration.ofHours(1)).build()) {
            RunRecord first = runner.run(spec(baseline, "follow-up", "Write first.txt, please."));
            JsonNode m1 = meta(first);
            assertThat(m1.path("outcome").asText()).as(m1.toPrettyString()).isEqualTo("completed");
            assertThat(m1.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("first.txt");
            String session = m1.path("session_id").asText();
            assertThat(session).as("claude's session id in meta.json").isNotBlank();
            assertThat(m1.path("kept_workspace").path("session_id").asText()).isEqualTo(session);
            assertThat(runner.keptWorkspace(first.runId())).isPresent();
            int turnsBefore = turns("follow-up").size();

            RunRecord second = runner.followUp(first, "Now write second.txt too.");

            assertThat(RunMarker.find(second.runId())).as("processes left by the follow-up").isEmpty();
            JsonNode m2 = meta(second);
            assertThat(m2.path("outcome").asText()).as(m2.toPrettyString()).isEqualTo("completed");
            assertThat(second.runId()).isNotEqualTo(first.runId());
            assertThat(m2.path("parent_run_id").asText()).isEqualTo(first.runId());
            assertThat(m2.path("session_id").asText()).as("the same session, continued").isEqualTo(session);
            assertThat(m2.path("changes").path("files")).as("the diff starts at the first run's end")
                    .extracting(JsonNode::asText).containsExactly("second.txt");
            String diff = Files.readString(second.resultDir().resolve("diff.patch"));
            assertThat(diff).contains("+two").doesNotContain("first.txt");
            assertThat(m2.path("tokens").path("source").asText()).isEqualTo("metered");
            List<RecordedRequest> followUpTurns = turns("follow-up").subList(turnsBefore, turns("follow-up").size());
            assertThat(followUpTurns).as("the follow-up's model calls").isNotEmpty().allSatisfy(t ->
                    assertThat(t.body()).as("the resumed conversation carries the first prompt")
                            .contains("Write first.txt, please.").contains("Now write second.txt too."));
            assertThat(baseline.resolve("first.txt")).doesNotExist();

            assertThatThrownBy(() -> runner.followUp(first, "Once more."))
                    .as("a kept run takes one follow-up").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already").hasMessageContaining(first.runId());
            assertThat(runner.keptWorkspace(second.runId())).as("the follow-up is kept in turn").isPresent();
        }
    }

    @Test
    void withoutKeepWorkspaceARunIsNotKeptAndItsFollowUpIsRefusedClearly() throws Exception {
        server.script("not-kept", Scenario.builder().writeFile("a.txt", "a\n").say("Done.").build());
        Path baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).providers(provider())
                .build()) {
            RunRecord first = runner.run(spec(baseline, "not-kept", "Write a.txt."));
            assertThat(meta(first).path("outcome").asText()).isEqualTo("completed");
            assertThat(meta(first).has("kept_workspace")).isFalse();
            assertThat(Files.exists(tmp.resolve("state/runs").resolve(first.runId()))).isFalse();

            assertThatThrownBy(() -> runner.followUp(first, "More."))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has no kept workspace").hasMessageContaining("keepWorkspace(Duration)");
        }
    }
}
