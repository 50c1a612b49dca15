package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.core.process.ProcessOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AfterHarnessTest {
    /** Run ids of this JVM only: another build's run of this test kills its own markers' processes. */
    private static final String JVM = Long.toString(ProcessHandle.current().pid());

    @TempDir Path tmp;

    private Path base;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() {
        base = repo(tmp.resolve("base"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private RunSpec spec(String script) {
        return RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("do it").baseline(base).task("t")
                .option("script", script).build();
    }

    @Test
    void theStepSeesTheAgentsChangesAndAddsAResultFileAndAMetaSection() throws Exception {
        AtomicReference<Path> workspace = new AtomicReference<>();
        RunRecord r = runner.run(spec("echo from-the-agent > work.txt"), "after-1-" + JVM, HarnessListener.NONE, ctx -> {
            workspace.set(ctx.workspace());
            Path log = ctx.scratchDir().resolve("check.log");
            ProcessOutcome o = ctx.run(List.of("sh", "-c", "cat work.txt; echo \"checked $CHECK_MODE\"; exit 3"),
                    Map.of("CHECK_MODE", "strict"), Duration.ofSeconds(60), log);
            ctx.addResultFile("check.log", log);
            ctx.putMeta("check", Map.of("exit_code", o.exitCode(), "outcome_seen", ctx.result().outcome().wireName()));
        });

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(Files.readString(r.resultDir().resolve("check.log"))).contains("from-the-agent", "checked strict");
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        assertThat(meta.path("check").path("exit_code").asInt()).isEqualTo(3);
        assertThat(meta.path("check").path("outcome_seen").asText()).isEqualTo("completed");
        assertThat(r.sections()).containsKey("check");
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("work.txt");
        assertThat(workspace.get()).doesNotExist(); // deleted after the step, as every run's workspace
    }

    @Test
    void aCommandPastItsTimeoutIsStoppedWithItsWholeTree() throws Exception {
        AtomicReference<ProcessOutcome> outcome = new AtomicReference<>();
        AtomicReference<String> pid = new AtomicReference<>();
        runner.run(spec("true"), "after-2-" + JVM, HarnessListener.NONE, ctx -> {
            Path pidFile = ctx.scratchDir().resolve("child.pid"); // the step's scratch: writable when sandboxed
            outcome.set(ctx.run(List.of("sh", "-c", "sleep 300 & echo $! > " + pidFile + "; wait"), Map.of(),
                    Duration.ofSeconds(2), ctx.scratchDir().resolve("out.log")));
            try {
                pid.set(Files.readString(pidFile).strip());
            } catch (java.io.IOException e) {
                pid.set("");
            }
        });

        assertThat(outcome.get().termination().kind()).isEqualTo(Termination.Kind.MAX_RUNTIME);
        assertThat(pid.get()).isNotEmpty(); // the grandchild was started
        assertThat(dev.harness4j.core.process.RunMarker.find("after-2-" + JVM + "-after1")).as("survivors").isEmpty();
    }

    @Test
    void aFailingStepIsANoteAndLeavesTheOutcomeAlone() throws Exception {
        RunRecord r = runner.run(spec("echo x > x.txt"), "after-3-" + JVM, HarnessListener.NONE, ctx -> {
            ctx.putMeta("kept", "before the failure");
            throw new IllegalStateException("verifier exploded");
        });

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.notes()).anyMatch(n -> n.contains("verifier exploded"));
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        assertThat(meta.path("kept").asText()).isEqualTo("before the failure");
    }

    @Test
    void theRunnersOwnKeysAndFilesCannotBeTaken() {
        AtomicReference<Throwable> key = new AtomicReference<>();
        AtomicReference<Throwable> file = new AtomicReference<>();
        runner.run(spec("true"), "after-4-" + JVM, HarnessListener.NONE, ctx -> {
            try {
                ctx.putMeta("outcome", "passed");
            } catch (IllegalArgumentException e) {
                key.set(e);
            }
            try {
                ctx.addResultFile("meta.json", ctx.scratchDir());
            } catch (IllegalArgumentException e) {
                file.set(e);
            }
        });
        assertThat(key.get()).hasMessageContaining("outcome");
        assertThat(file.get()).hasMessageContaining("meta.json");
        assertThatThrownBy(() -> runner.run(spec("true"), "after-5-" + JVM, HarnessListener.NONE, null))
                .isInstanceOf(NullPointerException.class);
    }
}
