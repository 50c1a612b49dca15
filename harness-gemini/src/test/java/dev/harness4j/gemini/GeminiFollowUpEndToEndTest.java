package dev.harness4j.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-up prompts with the real {@code gemini}: a kept run's session continued with {@code
 * --resume} in the same workspace and per-run {@code GEMINI_CLI_HOME}, through the meter, against the scripted
 * model server.
 */
@RealCli
class GeminiFollowUpEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new GeminiHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        String text = Files.readString(r.resultDir().resolve("meta.json"));
        assertThat(text).doesNotContain(ScriptedProvider.KEY);
        return JSON.readTree(text);
    }

    private static List<RecordedRequest> turns(String model) {
        return server.requests(RecordedRequest.Kind.TURN).stream().filter(t -> model.equals(t.model())).toList();
    }

    @Test
    void aFollowUpContinuesTheSessionInTheKeptWorkspaceAndItsDiffStartsAtThePreviousRunsEnd() throws Exception {
        String model = "gemini-follow-up";
        server.script(model, Scenario.builder()
                .shell("printf 'one\\n' > first.txt").say("Wrote first.txt.")
                .shell("printf 'two\\n' > second.txt").say("Wrote second.txt.").build());
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
        Path baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        RunSpec spec = RunSpec.builder(GeminiHarness.ID, ScriptedProvider.NAME).model(model)
                .prompt("Write first.txt, please.").baseline(baseline)
                .limits(new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null)).build();
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).runnerEnvironment(env)
                .registry(HarnessRegistry.builder().add(new GeminiHarness()).build())
                .providers(new ScriptedProvider(server, EnumSet.of(ApiStyle.GEMINI)))
                .keepWorkspace(Duration.ofHours(1)).build()) {
            RunRecord first = runner.run(spec);
            JsonNode m1 = meta(first);
            assertThat(m1.path("outcome").asText()).as(m1.toPrettyString()).isEqualTo("completed");
            assertThat(m1.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("first.txt");
            String session = m1.path("session_id").asText();
            assertThat(session).as("gemini's session id in meta.json").isNotBlank();
            assertThat(m1.path("kept_workspace").path("session_id").asText()).isEqualTo(session);
            int turnsBefore = turns(model).size();

            RunRecord second = runner.followUp(first, "Now write second.txt too.");

            assertThat(RunMarker.find(second.runId())).as("processes left by the follow-up").isEmpty();
            JsonNode m2 = meta(second);
            assertThat(m2.path("outcome").asText()).as(m2.toPrettyString()).isEqualTo("completed");
            assertThat(m2.path("parent_run_id").asText()).isEqualTo(first.runId());
            assertThat(m2.path("session_id").asText()).as("the same session, continued").isEqualTo(session);
            assertThat(m2.path("changes").path("files")).as("the diff starts at the first run's end")
                    .extracting(JsonNode::asText).containsExactly("second.txt");
            assertThat(m2.path("tokens").path("source").asText()).isEqualTo("metered");
            List<RecordedRequest> followUpTurns = turns(model).subList(turnsBefore, turns(model).size());
            assertThat(followUpTurns).as("the follow-up's model calls").isNotEmpty().allSatisfy(t ->
                    assertThat(t.body()).as("the continued session carries the first prompt")
                            .contains("Write first.txt, please.").contains("Now write second.txt too."));
            assertThat(baseline.resolve("first.txt")).doesNotExist();
            assertThat(runner.keptWorkspace(second.runId())).as("the follow-up is kept in turn").isPresent();
        }
    }
}
