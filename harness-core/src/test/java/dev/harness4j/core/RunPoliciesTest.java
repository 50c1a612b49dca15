package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.ServedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code requireLogin} refuses before the harness starts; {@code requireServedModel} marks or fails a run. */
class RunPoliciesTest {
    @TempDir Path tmp;

    /**
     * {@link ShellHarness} with a login probe ({@code sh -c <option "probe">}: exit 0 logged in,
     * 1 logged out, else unknown), a login command, and the served model named by option {@code
     * served} (unmeasured without it).
     */
    static final class PolicyHarness implements Harness {
        private final ShellHarness shell = new ShellHarness();

        @Override public String id() { return "policy-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return shell.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return shell.prepare(ctx); }
        @Override public Optional<String> loginCommand() { return Optional.of("policy-cli auth login"); }

        @Override
        public HarnessResult interpret(Execution ex) {
            HarnessResult r = shell.interpret(ex);
            return ex.context().option("served")
                    .map(m -> new HarnessResult(r.outcome(), r.reason(), r.tokens(), r.cost(),
                            ServedModel.exact(ex.context().model(), List.of(m)), r.summary(), r.phaseReport(), r.retryAt()))
                    .orElse(r);
        }

        @Override
        public Optional<Invocation> loginProbe(HarnessContext ctx) {
            return ctx.option("probe").map(p -> Invocation.builder(ctx.executable(), "-c", p)
                    .workingDir(ctx.scratchDir()).build());
        }

        @Override
        public Login interpretLogin(Execution ex) {
            if (ex.exitCode() == null) {
                return Login.unknown();
            }
            return switch (ex.exitCode()) {
                case 0 -> new Login(Login.Status.LOGGED_IN, "api_key", null, null, null, null);
                case 1 -> Login.notLoggedIn();
                default -> Login.unknown();
            };
        }
    }

    private HarnessRunner runner(HarnessRunner.Builder b) {
        return b.stateDir(tmp.resolve("state")).registry(HarnessRegistry.builder().add(new PolicyHarness()).build())
                .providers(ShellHarness.provider()).build();
    }

    private Path base;

    private RunSpec.Builder spec(String script) {
        if (base == null) {
            base = repo(tmp.resolve("base"));
        }
        return RunSpec.builder("policy-test", "local").model("m1").prompt("p").baseline(base)
                .option("script", script);
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile());
    }

    private static long filesBelow(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void aLoggedOutCliIsRefusedBeforeItsProcessStartsNamingTheLoginCommandAndNothingIsWritten() throws Exception {
        Path ran = tmp.resolve("harness-ran");
        try (HarnessRunner r = runner(HarnessRunner.builder().requireLogin(Requirement.REQUIRED))) {
            assertThatThrownBy(() -> r.run(spec("touch '" + ran + "'").option("probe", "exit 1").build()))
                    .isInstanceOf(NotLoggedInException.class)
                    .hasMessageContaining("policy-test")
                    .hasMessageContaining("not logged in")
                    .hasMessageContaining("log it in with: policy-cli auth login")
                    .satisfies(e -> assertThat(((NotLoggedInException) e).status()).isEqualTo(Login.Status.NOT_LOGGED_IN));
        }
        assertThat(ran).as("the harness process never started").doesNotExist();
        assertThat(filesBelow(tmp.resolve("state").resolve("results"))).as("no result written").isZero();
        assertThat(filesBelow(tmp.resolve("state").resolve("runs"))).as("the run dir is gone").isZero();
    }

    @Test
    void anUnknownLoginRunsUnderRequiredAndIsRefusedUnderStrict() throws Exception {
        try (HarnessRunner r = runner(HarnessRunner.builder().requireLogin(Requirement.REQUIRED))) {
            RunRecord rec = r.run(spec("echo w > w.txt").option("probe", "exit 7").build());
            assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(rec.login().status()).isEqualTo(Login.Status.UNKNOWN);
        }
        try (HarnessRunner r = runner(HarnessRunner.builder().requireLogin(Requirement.STRICT))) {
            assertThatThrownBy(() -> r.run(spec("true").option("probe", "exit 7").build()))
                    .isInstanceOf(NotLoggedInException.class).hasMessageContaining("could not tell")
                    .hasMessageContaining("policy-cli auth login");
            RunRecord ok = r.run(spec("echo w > w.txt").option("probe", "exit 0").build());
            assertThat(ok.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(ok.login().status()).isEqualTo(Login.Status.LOGGED_IN);
        }
    }

    @Test
    void aHarnessWithoutAProbeIsNeverRefusedEvenStrict() {
        try (HarnessRunner r = runner(HarnessRunner.builder().requireLogin(Requirement.STRICT))) {
            RunRecord rec = r.run(spec("echo w > w.txt").build()); // no "probe" option: the adapter has none
            assertThat(rec.result().outcome()).isEqualTo(Outcome.COMPLETED);
        }
    }

    @Test
    void requireLoginWithoutTheProbeIsABuilderError() {
        assertThatThrownBy(() -> HarnessRunner.builder().loginProbe(false).requireLogin(Requirement.REQUIRED).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("loginProbe(false)");
    }

    @Test
    void anUnmeasuredOrMismatchedServedModelMarksTheRunUntrustedAndStrictFailsIt() throws Exception {
        try (HarnessRunner r = runner(HarnessRunner.builder())) {
            RunRecord off = r.run(spec("echo w > w.txt").build());
            assertThat(off.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(meta(off).has("trust")).as("policy off: no trust section").isFalse();
            assertThat(meta(off).get("completion_mode").asText()).as("recorded for every run").isEqualTo("opaque");
        }
        try (HarnessRunner r = runner(HarnessRunner.builder().requireServedModel(Requirement.REQUIRED))) {
            RunRecord unmeasured = r.run(spec("echo w > w.txt").build());
            assertThat(unmeasured.result().outcome()).isEqualTo(Outcome.COMPLETED);
            JsonNode trust = meta(unmeasured).get("trust");
            assertThat(trust.get("trusted").asBoolean()).isFalse();
            assertThat(trust.get("require_served_model").asText()).isEqualTo("required");
            assertThat(trust.get("reason").asText()).contains("unmeasured");
            assertThat(unmeasured.notes()).anyMatch(n -> n.startsWith("untrusted: served model unmeasured"));

            RunRecord matched = r.run(spec("echo w > w.txt").option("served", "m1").build());
            assertThat(meta(matched).get("trust").get("trusted").asBoolean()).isTrue();
        }
        try (HarnessRunner r = runner(HarnessRunner.builder().requireServedModel(Requirement.STRICT))) {
            RunRecord other = r.run(spec("echo w > w.txt").option("served", "cheap-model").build());
            assertThat(other.result().outcome()).isEqualTo(Outcome.MODEL_MISMATCH);
            assertThat(other.result().reason()).contains("asked for m1, answered by [cheap-model]");
            assertThat(meta(other).get("outcome").asText()).isEqualTo("model-mismatch");
            assertThat(other.changes().files()).as("what it did is kept").contains("w.txt");

            RunRecord failed = r.run(spec("exit 3").build());
            assertThat(failed.result().outcome()).as("a failure keeps its own outcome").isEqualTo(Outcome.ERROR);
            assertThat(meta(failed).get("trust").get("trusted").asBoolean()).isFalse();

            RunRecord matched = r.run(spec("echo w > w.txt").option("served", "m1").build());
            assertThat(matched.result().outcome()).isEqualTo(Outcome.COMPLETED);
        }
    }

    @Test
    void aModelMismatchIsNeitherASuccessNorRetried() {
        assertThat(Outcome.MODEL_MISMATCH.isSuccess()).isFalse();
        assertThat(Outcome.MODEL_MISMATCH.isRetryable()).isFalse();
        assertThat(Outcome.MODEL_MISMATCH.wireName()).isEqualTo("model-mismatch");
        assertThat(Outcome.fromWireName("model-mismatch")).isEqualTo(Outcome.MODEL_MISMATCH);
        assertThat(dev.harness4j.core.queue.RetryPolicy.DEFAULT.retryTime(Outcome.MODEL_MISMATCH, 1, null,
                java.time.Instant.now())).isNull();
    }
}
