package dev.harness4j.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ACP agent's real CLI through {@link HarnessRunner} against the scripted model server, metered:
 * the file written with the scripted tokens, a rate limit, a dropped connection and a bail. One
 * subclass per agent gives the harness, the API style it speaks and how many attempts it makes at a
 * failing request.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AcpEndToEndCheck {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Limits LIMITS = new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null);
    static final String PROMPT = "Do the scripted task: write hello.txt and nothing else.";

    private ScriptedModelServer server;

    @TempDir
    Path tmp;

    /** The harness under test. */
    abstract AcpHarness harness();

    /** The API style the scripted provider serves it. */
    abstract ApiStyle style();

    /** How many requests the agent makes at an endpoint that keeps failing, at most (the scenario scripts more). */
    abstract int attempts();

    /**
     * How many side requests (a session title) the agent makes besides the scripted turn; the
     * scripted server answers each with {@code Usage.SIDE_REQUEST}'s one input and one output token.
     */
    int sideRequests() {
        return 0;
    }

    /**
     * Whether the agent sends ACP's optional usage figures (the {@code session/prompt} answer's
     * {@code usage}, a {@code usage_update} with a cost): then they are the adapter's own figures
     * in {@code meta.json}, beside the meter's.
     */
    boolean reportsUsage() {
        return false;
    }

    /** The scripted step that writes {@code hello.txt}: the agent's file-writing tool by default. */
    Scenario.Builder writeHello(Scenario.Builder s) {
        return s.writeFile("hello.txt", "hello from acp\n");
    }

    @BeforeAll
    void startServer() {
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void requireCli() {
        Clis.require(harness());
    }

    @Test
    void writesTheFileWithTheScriptedTokensMeasuredOnTheWire() throws Exception {
        String model = "acp-write";
        server.script(model, writeHello(Scenario.builder()).usage(100, 20, 30, 0)
                .say("Wrote hello.txt.").usage(110, 5, 0, 0)
                .build());

        Run run = run(model, id -> { });

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(Files.readString(run.record.resultDir().resolve("diff.patch"))).contains("+hello from acp");
        JsonNode tokens = run.meta.path("tokens");
        assertThat(tokens.path("source").asText()).as(run.describe()).isEqualTo("metered");
        assertThat(tokens.path("input").asLong()).as(run.describe()).isEqualTo(100 + 110 + sideRequests());
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5 + sideRequests());
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        if (reportsUsage()) { // the agent's own figures stay beside the meter's, which the run's are
            JsonNode own = run.meta.path("adapter");
            assertThat(own.path("tokens").path("source").asText()).as(run.describe()).isEqualTo("adapter");
            assertThat(own.path("tokens").path("output").asLong()).as(run.describe()).isEqualTo(20 + 5);
            assertThat(own.path("cost").path("source").asText()).as(run.describe()).isEqualTo("cli_estimate");
            assertThat(own.path("cost").path("usd").decimalValue()).isPositive();
        }
        assertThat(run.meta.path("served_model").path("answered")).extracting(JsonNode::asText).containsExactly(model);
        assertThat(run.meta.path("summary").asText()).isEqualTo("Wrote hello.txt.");
        assertThat(run.requests).hasSize(2 + sideRequests()).allSatisfy(r -> assertThat(r.model()).isEqualTo(model));
        JsonNode trajectory = JSON.readTree(run.record.resultDir().resolve("trajectory.json").toFile());
        assertThat(trajectory.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("adapter");
        assertThat(trajectory.path("steps").toString()).contains("hello.txt").contains("Wrote hello.txt.");
        assertThat(Files.readString(run.record.resultDir().resolve("transcript.log")))
                .as("the session's updates are the transcript").contains("session/update")
                .doesNotContain(ScriptedProvider.KEY);
    }

    @Test
    void rateLimitedEndpointEndsRateLimitedWithTheRetryTime() throws Exception {
        String model = "acp-429";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < attempts() + 2; i++) {
            s.failRateLimited(Duration.ofSeconds(30));
        }
        server.script(model, s.build());
        Instant started = Instant.now();

        Run run = run(model, id -> { });

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta.path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(Instant.parse(run.meta.path("retry_at").asText())).isAfter(started.plusSeconds(29));
        if (sideRequests() == 0) {
            assertThat(run.meta.path("tokens").path("source").isNull()).as("nothing answered").isTrue();
        } else {
            assertThat(run.meta.path("tokens").path("input").asLong()).as("only the side requests answered: " + run.describe())
                    .isEqualTo(sideRequests());
        }
    }

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        String model = "acp-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < attempts() + 2; i++) {
            s.dropConnection();
        }
        server.script(model, s.build());

        Run run = run(model, id -> { });

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("transient");
    }

    @Test
    void bailCancelsTheSessionAndLeavesNoProcess() throws Exception {
        String model = "acp-bail";
        server.script(model, Scenario.builder().stall(Duration.ofSeconds(60)).say("late").build());

        Run run = run(model, null);

        assertThat(run.meta.path("outcome").asText()).as(run.describe()).isEqualTo("bailed");
        assertThat(run.stdout).as("the agent answered session/cancel by ending the turn")
                .anyMatch(l -> l.contains("\"stopReason\":\"cancelled\""));
        assertThat(RunMarker.find(run.record.runId())).as("processes carrying the run's marker").isEmpty();
        assertThat(run.record.duration()).as("stopped well before the stall ends").isLessThan(Duration.ofSeconds(40));
    }

    /** Runs the harness; with {@code onStart == null} the run is bailed once its session is open and prompted. */
    private Run run(String model, Consumer<String> onStart) throws Exception {
        List<String> out = new CopyOnWriteArrayList<>();
        List<String> err = new CopyOnWriteArrayList<>();
        int before = server.requests().size();
        RunRecord record;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(harness()).build())
                .providers(new ScriptedProvider(server, Set.of(style())))
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine o) {
                        (o.stream() == HarnessEvent.Stream.STDOUT ? out : err).add(o.text());
                    }
                })
                .build()) {
            RunSpec spec = RunSpec.builder(harness().id(), ScriptedProvider.NAME).model(model).prompt(PROMPT)
                    .baseline(GitRepos.withReadme(tmp.resolve("repo-" + model))).limits(LIMITS).build();
            String runId = model + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
            CompletableFuture<RunRecord> f = CompletableFuture.supplyAsync(() -> runner.run(spec, runId));
            if (onStart == null) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                // the session is open (session/new answered) and the prompt sent: the model request is stalling
                String answered = "\"id\":" + dev.harness4j.api.AcpSession.NEW_SESSION_ID; // then ',' or '}' (codex-acp puts id last)
                while (out.stream().noneMatch(l -> l.contains(answered + ",") || l.contains(answered + "}"))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                Thread.sleep(2_000);
                assertThat(runner.bail(runId)).isTrue();
            }
            record = f.get(5, TimeUnit.MINUTES);
        }
        List<RecordedRequest> requests = server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> model.equals(r.model())).toList();
        JsonNode meta = JSON.readTree(record.resultDir().resolve("meta.json").toFile());
        return new Run(record, meta, requests, out, err);
    }

    /** One finished run as the test reads it. */
    record Run(RunRecord record, JsonNode meta, List<RecordedRequest> requests, List<String> stdout, List<String> stderr) {
        String describe() {
            return meta.toPrettyString() + "\nrequests:\n" + requests.stream()
                    .map(r -> r.path() + " ..." + r.body().substring(Math.max(0, r.body().lastIndexOf("\"role\":\"user\""))).substring(0, 300))
                    .collect(java.util.stream.Collectors.joining("\n")) + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr (tail):\n"
                    + String.join("\n", stderr.subList(Math.max(0, stderr.size() - 10), stderr.size()));
        }
    }
}
