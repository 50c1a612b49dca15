package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.fingerprint;
import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.RunSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultIndexTest {
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

    private RunSpec.Builder spec(String task, String text) {
        return RunSpec.builder(ShellHarness.ID, "local").model("gemma4:31b").prompt("do it").baseline(base)
                .task(task).option("script", "echo '" + text + "' > out.txt");
    }

    private static String runIdIn(Path dir) throws Exception {
        return new ObjectMapper().readTree(dir.resolve("meta.json").toFile()).get("run_id").asText();
    }

    @Test
    void twoRunsOfOneHarnessAndModelKeepTwoIntactResultsForTwoTasksAndForOneTaskTwice() throws Exception {
        RunRecord first = runner.run(spec("task-a", "first").build());
        RunRecord second = runner.run(spec("task-b", "second").build());
        RunRecord third = runner.run(spec("task-a", "third").trial(2).build());

        for (RunRecord r : List.of(first, second, third)) {
            assertThat(runIdIn(r.resultDir())).as("the result dir of " + r.runId() + " shows its own run")
                    .isEqualTo(r.runId());
        }
        assertThat(first.resultDir().resolve("diff.patch")).content().contains("+first").doesNotContain("third");
        assertThat(second.resultDir().resolve("diff.patch")).content().contains("+second");
        assertThat(third.resultDir().resolve("diff.patch")).content().contains("+third");
        assertThat(first.resultDir().getParent()).isEqualTo(third.resultDir().getParent());
        assertThat(first.resultDir()).isNotEqualTo(third.resultDir());

        JsonNode meta = new ObjectMapper().readTree(third.metaFile().toFile());
        assertThat(meta.get("task").asText()).isEqualTo("task-a");
        assertThat(meta.get("harness").asText()).isEqualTo(ShellHarness.ID);
        assertThat(meta.get("provider").asText()).isEqualTo("local");
        assertThat(meta.get("model").asText()).isEqualTo("gemma4:31b");
        assertThat(meta.get("trial").asInt()).isEqualTo(2);

        ResultIndex index = runner.results();
        assertThat(index.find(ResultQuery.all().task("task-a"))).extracting(StoredResult::runId)
                .containsExactly(first.runId(), third.runId());
        assertThat(index.find(ResultQuery.all().task("task-a").harness(ShellHarness.ID).provider("local")
                .model("gemma4:31b"))).extracting(StoredResult::trial).containsExactly(1, 2);
        assertThat(index.find(ResultQuery.all().model("gemma4:31b"))).hasSize(3);
        assertThat(index.find(ResultQuery.all().provider("elsewhere"))).isEmpty();
        assertThat(index.find(ResultQuery.all().harness("other"))).isEmpty();
        assertThat(ResultIndex.of(tmp.resolve("state")).all()).extracting(StoredResult::dir)
                .containsExactly(first.resultDir(), second.resultDir(), third.resultDir());
    }

    @Test
    void theIndexSeesNewRunsAfterItHasBeenReadAndSkipsDirsWithoutAReadableMeta() throws Exception {
        ResultIndex index = ResultIndex.of(tmp.resolve("state"));
        assertThat(index.all()).isEmpty();
        RunRecord first = runner.run(spec("t", "one").build());
        assertThat(index.find(ResultQuery.all().task("t"))).hasSize(1);
        RunRecord second = runner.run(spec("t", "two").build());
        assertThat(index.find(ResultQuery.all().task("t"))).extracting(StoredResult::runId)
                .containsExactly(first.runId(), second.runId());

        Path broken = Files.createDirectories(first.resultDir().resolveSibling("half-written"));
        Files.writeString(broken.resolve("meta.json"), "{\"run_id\":");
        Files.createDirectories(first.resultDir().resolveSibling(".tmp-x"));
        assertThat(index.find(ResultQuery.all().task("t"))).hasSize(2);
        assertThat(index.runDirs()).contains(broken).doesNotContain(first.resultDir().resolveSibling(".tmp-x"));
    }

    @Test
    void aBadBaselineOrRefWritesNothingInTheStateDir() throws Exception {
        Path state = tmp.resolve("fresh-state");
        Map<String, String> before = fingerprint(base);
        try (HarnessRunner r = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            Path notARepo = Files.createDirectories(tmp.resolve("plain-dir"));
            assertThatThrownBy(() -> r.run(RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("p")
                    .baseline(notARepo).build())).hasMessageContaining("not a usable git repository");
            assertThatThrownBy(() -> r.run(RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("p")
                    .baseline(base).ref("no-such-branch").build())).hasMessageContaining("no-such-branch");
        }
        if (Files.exists(state)) {
            try (Stream<Path> s = Files.walk(state)) {
                assertThat(s.filter(p -> !p.equals(state)).toList()).as("nothing below the state dir").isEmpty();
            }
        }
        assertThat(fingerprint(base)).isEqualTo(before);
    }
}
