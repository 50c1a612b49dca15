package dev.harness4j.core.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Cost;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Login;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.BranchPush;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultStoreTest {
    @TempDir Path tmp;

    @org.junit.jupiter.api.BeforeEach
    void stateDir() throws Exception {
        Files.createDirectories(tmp.resolve("state")); // the runner makes it before any run
    }

    @Test
    void sanitisesModelIdsForPathsAndBranchNames() {
        assertThat(ResultStore.sanitise("gemma4:31b")).isEqualTo("gemma4-31b");
        assertThat(ResultStore.sanitise("openai/gpt-4o")).isEqualTo("openai-gpt-4o");
        assertThat(ResultStore.sanitise("..")).doesNotContain("..").isNotEqualTo(".");
        assertThat(ResultStore.sanitise("a b\\c*d?")).isEqualTo("a-b-c-d-");
        assertThat(ResultStore.sanitise("")).isEqualTo("default");
        assertThat(ResultStore.combo("opencode", "local", "ollama/gemma4:31b")).isEqualTo("opencode__local__ollama-gemma4-31b");
        assertThat(new ResultStore(tmp).dirFor("fix bug", "aider", "p", "x/y:z", "r1"))
                .isEqualTo(tmp.resolve("results/fix-bug/aider__p__x-y-z/r1"));
        assertThat(new ResultStore(tmp).dirFor(null, "aider", "p", "m", "r1")).isEqualTo(tmp.resolve("results/default/aider__p__m/r1"));
    }

    @Test
    void aSecretSerialisesAsStarsWithTheLibrarysMapper() throws Exception {
        var provider = new ResolvedProvider("p", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-hidden-123"), AuthScheme.BEARER, "m");
        String json = dev.harness4j.core.internal.util.Json.mapper().writeValueAsString(provider);
        assertThat(json).contains("\"secret\":\"***\"").doesNotContain("sk-hidden-123");
    }

    @Test
    void writesEveryFileWithRedactedMetaAndLeavesNoTempFiles() throws Exception {
        Path io = Files.createDirectories(tmp.resolve("io"));
        Files.writeString(io.resolve("t.log"), "said sk-hidden-123\n");
        Files.writeString(io.resolve("p.patch"), "+sk-hidden-123\n");
        ResultStore store = new ResultStore(tmp.resolve("state"));
        RunRecord record = record(store.dirFor(null, "h", "p", "gemma4:31b", "run-1"), "the key sk-hidden-123 was refused");
        Path dir = store.write(record, new ResultStore.RunFiles(io.resolve("p.patch"), null, io.resolve("t.log"), null),
                Redactor.of(Set.of("sk-hidden-123")));

        assertThat(dir).isEqualTo(tmp.resolve("state/results/default/h__p__gemma4-31b/run-1"));
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("diff.patch", "diffstat.txt", "events.jsonl", "meta.json", "transcript.log");
        }
        for (Path f : List.of(dir.resolve("meta.json"), dir.resolve("transcript.log"), dir.resolve("diff.patch"))) {
            assertThat(Files.readString(f)).doesNotContain("sk-hidden-123").contains("***");
        }
        JsonNode m = dev.harness4j.core.internal.util.Json.mapper().readTree(dir.resolve("meta.json").toFile());
        assertThat(m.get("reason").asText()).isEqualTo("the key *** was refused");
        assertThat(m.at("/tokens/input").asLong()).isEqualTo(10);
        assertThat(m.at("/tokens/output").isNull()).isTrue();
        assertThat(m.at("/tokens/source").asText()).isEqualTo("adapter");
        assertThat(m.at("/cost/usd").decimalValue()).isEqualByComparingTo("0.25");
        assertThat(m.at("/branch/error").asText()).isEqualTo("rejected");
        assertThat(m.at("/termination/reason").asText()).isEqualTo("no new output within 30 s");
        assertThat(m.get("stage").asText()).isEqualTo("run");
    }

    @Test
    void aStateDirDeletedUnderTheRunIsNotRecreatedByItsResult() throws Exception {
        Path state = tmp.resolve("state");
        ResultStore store = new ResultStore(state);
        Files.delete(state);
        assertThatThrownBy(() -> store.write(record(store.dirFor("t", "h", "p", "m", "run-1"), null),
                ResultStore.RunFiles.NONE, Redactor.NONE)).isInstanceOf(dev.harness4j.api.HarnessException.class)
                .hasMessageContaining("is gone");
        assertThat(state).doesNotExist();
    }

    @Test
    void rejectsAResultDirOutsideTheResultsDir() {
        ResultStore store = new ResultStore(tmp.resolve("state"));
        assertThatThrownBy(() -> store.write(record(tmp.resolve("elsewhere"), null), ResultStore.RunFiles.NONE, Redactor.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aResultIsNeverOverwrittenAndAWriterThatFindsItsDirTakenLeavesNoTempDir() throws Exception {
        ResultStore store = new ResultStore(tmp.resolve("state"));
        Path dir = store.dirFor("t", "h", "p", "m", "run-1");
        Path io = Files.createDirectories(tmp.resolve("io"));
        Path first = Files.writeString(io.resolve("a.log"), "first\n");
        store.write(record(dir, null, "run-1"), new ResultStore.RunFiles(null, null, first, null), Redactor.NONE);
        Path second = Files.writeString(io.resolve("b.log"), "second\n");

        assertThatThrownBy(() -> store.write(record(dir, null, "run-1"), new ResultStore.RunFiles(null, null, second, null),
                Redactor.NONE)).isInstanceOf(dev.harness4j.api.HarnessException.class)
                .hasMessageContaining("already exists").hasMessageContaining("never overwritten");
        assertThat(Files.readString(dir.resolve("transcript.log"))).isEqualTo("first\n");
        try (Stream<Path> s = Files.list(store.resultsDir())) {
            assertThat(s.map(f -> f.getFileName().toString()).toList()).containsExactly("t");
        }
    }

    @Test
    void concurrentWritersOfOneComboEachKeepTheirOwnWholeResult() throws Exception {
        Path io = Files.createDirectories(tmp.resolve("io"));
        Path state = tmp.resolve("state");
        int writers = 4;
        int rounds = 15;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
        List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int id = w;
            futures.add(pool.submit(() -> {
                ResultStore store = new ResultStore(state); // one store per writer, as across JVMs
                for (int i = 0; i < rounds; i++) {
                    String runId = "run-" + id + "-" + i;
                    Path t = Files.writeString(io.resolve(runId + ".log"), "transcript of " + runId + "\n");
                    store.write(record(store.dirFor("t", "h", "p", "gemma4:31b", runId), null, runId),
                            new ResultStore.RunFiles(null, null, t, null), Redactor.NONE);
                }
                return null;
            }));
        }
        for (var f : futures) {
            f.get(2, java.util.concurrent.TimeUnit.MINUTES);
        }
        pool.shutdown();
        Path combo = state.resolve("results/t/h__p__gemma4-31b");
        try (Stream<Path> s = Files.list(combo)) {
            List<Path> dirs = s.toList();
            assertThat(dirs).hasSize(writers * rounds);
            for (Path d : dirs) {
                String runId = runIdIn(d);
                assertThat(d.getFileName().toString()).isEqualTo(runId);
                assertThat(Files.readString(d.resolve("transcript.log"))).isEqualTo("transcript of " + runId + "\n");
            }
        }
        try (Stream<Path> s = Files.list(state.resolve("results"))) {
            assertThat(s.map(f -> f.getFileName().toString()).toList()).containsExactly("t");
        }
    }

    private static String runIdIn(Path dir) throws java.io.IOException {
        return dev.harness4j.core.internal.util.Json.mapper().readTree(Files.readString(dir.resolve("meta.json"))).get("run_id").asText();
    }

    private RunRecord record(Path resultDir, String reason) {
        return record(resultDir, reason, "run-1");
    }

    private RunRecord record(Path resultDir, String reason, String runId) {
        RunSpec spec = RunSpec.builder("h", "p").model("gemma4:31b").prompt("x").baseline(tmp).build();
        HarnessResult result = HarnessResult.builder(Outcome.TIMEOUT, "gemma4:31b").reason(reason)
                .tokens(TokenUsage.ofAdapter(10L, null, null, null))
                .cost(new Cost(new BigDecimal("0.25"), Cost.Source.CLI_ESTIMATE, null)).build();
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return RunRecord.builder(runId, spec).providerName("p").resolvedModel("gemma4:31b")
                .baseline(new Baseline(tmp, "main", "a".repeat(40), "main", false)).headAfter("b".repeat(40))
                .result(result).stage(RunRecord.Stage.RUN)
                .termination(new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no new output within 30 s"))
                .startedAt(t).finishedAt(t.plusSeconds(31)).changes(GitChanges.none("a".repeat(40)))
                .branch(new BranchPush(false, "harnesstests/h__gemma4-31b", "origin", null, "rejected"))
                .resultDir(resultDir).build();
    }
}
