package dev.harness4j.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Harness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The follow-up check an adapter whose {@link Harness#supportsFollowUp()} is true runs against the
 * real CLI: a kept run writes {@code first.txt}, its follow-up (a run of its own, through the
 * meter) continues the same session in the same workspace and writes {@code second.txt}; the
 * follow-up's model requests carry the first prompt (the session really was continued), its diff
 * holds only {@code second.txt}, and it leaves no process behind.
 *
 * <pre>{@code
 * FollowUpCheck.assertContinues(new CodexHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
 * }</pre>
 */
public final class FollowUpCheck {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIRST = "Write first.txt, please.";
    private static final String SECOND = "Now write second.txt too.";

    private FollowUpCheck() {}

    /**
     * Runs the check.
     *
     * @param harness the adapter, its CLI installed
     * @param styles the API styles the scripted provider declares for it
     * @param server a running scripted server that requires {@link ScriptedProvider#KEY}
     * @param tmp a directory of the test's own
     */
    public static void assertContinues(Harness harness, Set<ApiStyle> styles, ScriptedModelServer server, Path tmp) {
        String model = harness.id().replace(':', '-') + "-follow-up"; // a model name in a URL path (Gemini) takes no ':'
        server.script(model, Scenario.builder()
                .shell("printf 'one\\n' > first.txt").say("Wrote first.txt.")
                .shell("printf 'two\\n' > second.txt").say("Wrote second.txt.").build());
        try {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
            Path baseline = GitRepos.withReadme(tmp.resolve("baseline"));
            RunSpec spec = RunSpec.builder(harness.id(), ScriptedProvider.NAME).model(model).prompt(FIRST)
                    .baseline(baseline).limits(new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null))
                    .build();
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).runnerEnvironment(env)
                    .registry(HarnessRegistry.builder().add(harness).build())
                    .providers(new ScriptedProvider(server, EnumSet.copyOf(styles)))
                    .keepWorkspace(Duration.ofHours(1)).build()) {
                RunRecord first = runner.run(spec);
                JsonNode m1 = meta(first);
                assertThat(m1.path("outcome").asText()).as(m1.toPrettyString()).isEqualTo("completed");
                assertThat(m1.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("first.txt");
                String session = m1.path("session_id").asText();
                assertThat(session).as(harness.id() + "'s session id in meta.json").isNotBlank();
                assertThat(m1.path("kept_workspace").path("session_id").asText()).isEqualTo(session);
                int turnsBefore = turns(server, model).size();

                RunRecord second = runner.followUp(first, SECOND);

                assertThat(RunMarker.find(second.runId())).as("processes left by the follow-up").isEmpty();
                JsonNode m2 = meta(second);
                assertThat(m2.path("outcome").asText()).as(m2.toPrettyString()).isEqualTo("completed");
                assertThat(m2.path("parent_run_id").asText()).isEqualTo(first.runId());
                assertThat(m2.path("session_id").asText()).as("the same session, continued").isEqualTo(session);
                assertThat(m2.path("changes").path("files")).as("the diff starts at the first run's end")
                        .extracting(JsonNode::asText).containsExactly("second.txt");
                assertThat(m2.path("tokens").path("source").asText()).isEqualTo("metered");
                List<RecordedRequest> all = turns(server, model);
                assertThat(all.subList(turnsBefore, all.size())).as("the follow-up's model calls").isNotEmpty()
                        .allSatisfy(t -> assertThat(t.body()).as("the continued session carries the first prompt")
                                .contains(FIRST).contains(SECOND));
                assertThat(baseline.resolve("first.txt")).doesNotExist();
                assertThat(runner.keptWorkspace(second.runId())).as("the follow-up is kept in turn").isPresent();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode meta(RunRecord r) throws IOException {
        String text = Files.readString(r.resultDir().resolve("meta.json"));
        assertThat(text).doesNotContain(ScriptedProvider.KEY);
        return JSON.readTree(text);
    }

    private static List<RecordedRequest> turns(ScriptedModelServer server, String model) {
        return server.requests(RecordedRequest.Kind.TURN).stream().filter(t -> model.equals(t.model())).toList();
    }
}
