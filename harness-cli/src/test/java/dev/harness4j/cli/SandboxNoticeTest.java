package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.core.GitFixture;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.StoredResult;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a bench says its runs are confined: the plan header's line and the summary's warning. */
class SandboxNoticeTest {
    @TempDir Path tmp;

    private void meta(String task, String run, String sandbox) throws Exception {
        Path d = Files.createDirectories(tmp.resolve("state/results").resolve("b-" + task)
                .resolve("claude-code__p__m").resolve(run));
        Files.writeString(d.resolve("meta.json"), "{\"schema_version\":1,\"run_id\":\"" + run + "\",\"harness\":"
                + "\"claude-code\",\"provider\":\"p\",\"model\":\"m\",\"task\":\"b/" + task + "\",\"trial\":1,"
                + "\"outcome\":\"completed\"" + (sandbox == null ? "" : ",\"sandbox\":" + sandbox) + "}");
    }

    private List<ResultRow> rows() {
        return BenchSummary.read(tmp.resolve("state")).rows();
    }

    @Test
    void theWarningCountsTheUnconfinedRunsAndSaysWhyOnce() throws Exception {
        meta("t1", "r1", "{\"setting\":\"auto\",\"mode\":\"bubblewrap\",\"network\":\"meter-only\"}");
        meta("t2", "r2", "{\"setting\":\"auto\",\"mode\":\"unconfined\",\"reason\":\"bubblewrap is not installed\"}");
        meta("t3", "r3", "{\"setting\":\"auto\",\"mode\":\"unconfined\",\"reason\":\"bubblewrap is not installed\"}");
        meta("t4", "r4", "{\"setting\":\"off\",\"mode\":\"off\"}");
        meta("t5", "r5", null); // from before the sandbox: not counted
        Path results = tmp.resolve("state/results");

        assertThat(SandboxNotice.warning(results, rows())).hasValueSatisfying(w -> assertThat(w)
                .startsWith("WARNING: 3 of 5 runs ran unconfined, the agents with your full user rights"
                        + " (bubblewrap is not installed; the sandbox was off).")
                .contains("apt-get install bubblewrap perl-base"));
        List<ResultRow> confined = rows().stream().filter(r -> r.task().equals("b/t1") || r.task().equals("b/t5")).toList();
        assertThat(SandboxNotice.warning(results, confined)).isEmpty();
    }

    @Test
    void theHeaderSaysBubblewrapOrOffWithTheReason() {
        assertThat(SandboxNotice.header(Optional.empty())).isEqualTo("sandbox: bubblewrap, network: meter only");
        assertThat(SandboxNotice.header(Optional.of("bubblewrap is not installed")))
                .isEqualTo("sandbox: OFF (bubblewrap is not installed) — agents run with your full user rights");
        assertThat(SandboxNotice.header()).isEqualTo(SandboxNotice.header(SandboxNotice.problem()));
    }

    /** A real bench run (harness-jobs' test harness job-test: a shell script) through the command. */
    @Test
    void benchRunPrintsHowItsRunsAreConfinedInFrontOfThePlanAndWhatMetaJsonSays() throws Exception {
        Path task = Files.createDirectories(tmp.resolve("suite/greet"));
        Files.writeString(task.resolve("task.json"), "{\"instruction\": \"Create greeting.txt\","
                + " \"verify\": {\"command\": \"test -f greeting.txt\"}}");
        Path repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        Path state = tmp.resolve("state");
        ProvidersFile.write(ProvidersFile.in(state), // the test harness never calls its provider
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:9"), "scripted-a")));
        StringWriter out = new StringWriter();
        Embedding script = new Embedding(null, UnaryOperator.identity(), Map.of("script", "echo hi > greeting.txt"));
        int code = Harness4j.run(new PrintWriter(out, true), new PrintWriter(out, true), script, "bench", "run",
                "--state-dir", state.toString(), "--suite", tmp.resolve("suite").toString(), "--repo", repo.toString(),
                "--harness", "job-test", "--provider", "scripted");
        assertThat(code).as(out.toString()).isZero();

        List<String> lines = out.toString().lines().toList();
        int plan = lines.indexOf(lines.stream().filter(l -> l.startsWith("bench plan")).findFirst().orElseThrow());
        assertThat(lines.get(plan - 1)).isEqualTo(SandboxNotice.header());
        List<StoredResult> results = ResultIndex.of(state).all();
        assertThat(results).hasSize(1);
        String mode = new ObjectMapper().readTree(results.get(0).metaFile().toFile()).path("sandbox").path("mode").asText();
        assertThat(mode).isEqualTo(SandboxNotice.header().equals(SandboxNotice.CONFINED) ? "bubblewrap" : "unconfined");
        assertThat(out.toString().contains("WARNING: 1 of 1 runs ran unconfined")).isEqualTo(mode.equals("unconfined"));
    }
}
