package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Login;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's login probe runs before the main process and its answer lands in meta.json.
 * Unconfined, so that a probe can leave a trace in the test's temp dir ({@code SandboxTest}
 * shows the confined probe).
 */
class LoginProbeTest {
    @TempDir Path tmp;

    /** {@link ShellHarness} plus a probe: {@code sh -c <option "probe">}, read as JSON. */
    static final class ProbingHarness implements Harness {
        private final ShellHarness shell = new ShellHarness();

        @Override public String id() { return "probe-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return shell.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return shell.prepare(ctx); }
        @Override public HarnessResult interpret(Execution ex) { return shell.interpret(ex); }

        @Override
        public Optional<Invocation> loginProbe(HarnessContext ctx) {
            return ctx.option("probe").map(p -> Invocation.builder(ctx.executable(), "-c", p)
                    .workingDir(ctx.scratchDir()).secretEnv("TEST_KEY", ctx.provider().secret().reveal()).build());
        }

        @Override
        public Login interpretLogin(Execution ex) {
            try {
                JsonNode n = new ObjectMapper().readTree(ex.stdout().toFile());
                return new Login(n.path("loggedIn").asBoolean() ? Login.Status.LOGGED_IN : Login.Status.NOT_LOGGED_IN,
                        n.path("authMethod").asText(null), null, null, null, null);
            } catch (java.io.IOException e) {
                return Login.unknown();
            }
        }
    }

    private RunRecord run(HarnessRunner.Builder b, String probe) {
        Path base = repo(tmp.resolve("base"));
        try (HarnessRunner r = b.stateDir(tmp.resolve("state")).sandbox(Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new ProbingHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            return r.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                    .option("script", "echo w > w.txt").option("probe", probe).build());
        }
    }

    private static JsonNode login(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile()).get("login");
    }

    @Test
    void theProbesAnswerIsRecordedInTheRecordAndMeta() throws Exception {
        RunRecord r = run(HarnessRunner.builder(), "echo '{\"loggedIn\":true,\"authMethod\":\"api_key\"}'");
        assertThat(r.login().status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(login(r).get("status").asText()).isEqualTo("logged_in");
        assertThat(login(r).get("auth_method").asText()).isEqualTo("api_key");
        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void aProbeThatHangsIsStoppedAtItsTimeoutAndTheRunStillCompletesWithLoginUnknown() throws Exception {
        long start = System.nanoTime();
        RunRecord r = run(HarnessRunner.builder().loginTimeout(Duration.ofMillis(500)).termGrace(Duration.ofMillis(200)),
                "sleep 60");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(login(r).get("status").asText()).isEqualTo("unknown");
        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void aFailingProbeOrGarbageOutputIsUnknownNeverAFailedRun() throws Exception {
        RunRecord r = run(HarnessRunner.builder(), "echo not json; exit 3");
        assertThat(login(r).get("status").asText()).isEqualTo("unknown");
        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void switchedOffTheProbeDoesNotRun() throws Exception {
        Path ran = tmp.resolve("probe-ran");
        RunRecord r = run(HarnessRunner.builder().loginProbe(false),
                "touch '" + ran + "'; echo '{\"loggedIn\":true}'");
        assertThat(ran).doesNotExist();
        assertThat(login(r).get("status").asText()).isEqualTo("unknown");
    }

    @Test
    void aClearAnswerIsReusedForTheSameConfigurationUntilItsTtlAndAnotherConfigurationProbesAgain() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Path count = tmp.resolve("probes");
        String probe = "echo x >> '" + count + "'; echo '{\"loggedIn\":true}'";
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state")).sandbox(Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new ProbingHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            for (int i = 0; i < 3; i++) {
                RunRecord rec = r.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                        .option("script", "true").option("probe", probe).build());
                assertThat(rec.login().status()).isEqualTo(Login.Status.LOGGED_IN);
            }
            assertThat(Files.readAllLines(count)).as("probes run for three runs of one configuration").hasSize(1);
            r.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                    .option("script", "true").option("probe", probe + " # another configuration").build());
            assertThat(Files.readAllLines(count)).hasSize(2);
        }
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state2")).loginCacheTtl(Duration.ZERO)
                .sandbox(Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new ProbingHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            for (int i = 0; i < 2; i++) {
                r.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                        .option("script", "true").option("probe", probe).build());
            }
            assertThat(Files.readAllLines(count)).as("without a cache every run probes").hasSize(4);
        }
    }

    @Test
    void aNewRunnerOnTheSameStateDirReusesTheClearAnswerOnItsFirstRun() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Path count = tmp.resolve("probes");
        String probe = "echo x >> '" + count + "'; echo '{\"loggedIn\":true}'";
        for (int i = 0; i < 2; i++) {
            try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state")).sandbox(Sandbox.OFF)
                    .registry(HarnessRegistry.builder().add(new ProbingHarness()).build())
                    .providers(ShellHarness.provider()).build()) {
                RunRecord rec = r.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                        .option("script", "true").option("probe", probe).build());
                assertThat(rec.login().status()).isEqualTo(Login.Status.LOGGED_IN);
            }
        }
        assertThat(Files.readAllLines(count)).as("the second runner's first run answers from the state dir").hasSize(1);
        try (var files = Files.list(tmp.resolve("state/cache/logins"))) {
            assertThat(files.toList()).singleElement().satisfies(f -> assertThat(Files.readString(f))
                    .contains("LOGGED_IN").doesNotContain(ShellHarness.KEY));
        }
    }

    @Test
    void theProbeNeverHoldsTheProvidersKeyOnlyAPlaceholder() throws Exception {
        Path seen = tmp.resolve("probe-key");
        RunRecord r = run(HarnessRunner.builder(), "printf %s \"$TEST_KEY\" > '" + seen + "'; echo '{\"loggedIn\":true}'");

        assertThat(r.login().status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(Files.readString(seen)).isEqualTo(dev.harness4j.core.stages.LoginProbeStage.PROBE_KEY_PLACEHOLDER)
                .doesNotContain(ShellHarness.KEY);
    }
}
