package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Harness4jTest {
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /** A verified result of bench {@code bench} as the runner writes it. */
    private void result(String bench, String task, String harness, String model, int trial, String verify) throws Exception {
        Path d = Files.createDirectories(tmp.resolve("state/results").resolve(bench + "-" + task)
                .resolve(harness + "__p__" + model).resolve("r-" + bench + task + harness + model + trial));
        Files.writeString(d.resolve("meta.json"), "{\"schema_version\":1,\"run_id\":\"r" + trial + "\",\"harness\":\"" + harness
                + "\",\"provider\":\"p\",\"model\":\"" + model + "\",\"resolved_model\":\"" + model + "\",\"task\":\""
                + bench + "/" + task + "\",\"trial\":" + trial + ",\"outcome\":\"completed\",\"duration_ms\":1000,"
                + "\"finished_at\":\"2026-12-01T00:00:00Z\",\"verify\":{\"status\":\"" + verify + "\"}}");
        Files.writeString(d.resolve("diff.patch"), "diff --git a/x b/x\n+x\n");
    }

    @Test
    void everyCommandHasHelpAndAnUnknownOptionIsBadInput() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("bench", "harnesses", "providers");
        for (String[] cmd : List.of(new String[] {"bench", "--help"}, new String[] {"bench", "run", "--help"},
                new String[] {"bench", "resume", "--help"}, new String[] {"bench", "summary", "--help"},
                new String[] {"bench", "compare", "--help"}, new String[] {"bench", "report", "--help"},
                new String[] {"harnesses", "check", "--help"}, new String[] {"providers", "refresh", "--help"})) {
            assertThat(run(cmd)).as(String.join(" ", cmd)).isZero();
        }
        assertThat(out.toString()).as("bench run compares with a baseline by itself").contains("--baseline=<baseline>");
        assertThat(run("bench", "summary", "--frobnicate")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("--frobnicate");
    }

    @Test
    void aSuiteWithProblemsIsRefusedWholeWithExitTwo() throws Exception {
        Path suite = Files.createDirectories(tmp.resolve("suite/t1"));
        Files.writeString(suite.resolve("task.json"), "{\"instruction\": \"x\", \"tags\": 3}");
        int code = run("bench", "run", "--state-dir", tmp.resolve("state").toString(), "--suite",
                tmp.resolve("suite").toString(), "--harness", "claude-code", "--provider", "nope");
        assertThat(code).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("no verify command", "tags must be an array", "nothing was queued");
        assertThat(tmp.resolve("state/queue")).doesNotExist();
    }

    @Test
    void summaryCompareAndReportReadTheResults() throws Exception {
        for (int trial = 1; trial <= 2; trial++) {
            result("mon", "t1", "claude-code", "m", trial, "passed");
            result("tue", "t1", "claude-code", "m", trial, "failed");
        }
        String state = tmp.resolve("state").toString();
        assertThat(run("bench", "summary", "--state-dir", state, "--bench", "tue")).isZero();
        assertThat(out.toString()).contains("claude-code", "0/2", "pass@2");
        assertThat(run("bench", "compare", "--state-dir", state, "--bench", "tue", "--baseline", "mon")).isZero();
        assertThat(out.toString()).contains("newly failing: 1", "t1  claude-code / m  pass -> fail");
        assertThat(run("bench", "report", "--state-dir", state, "--bench", "tue", "--baseline", "mon")).isZero();
        assertThat(tmp.resolve("state/reports/tue/index.html")).content().contains("id=\"compare\"", "newly failing: 1");
        assertThat(run("bench", "compare", "--state-dir", state, "--bench", "wed", "--baseline", "mon"))
                .isEqualTo(Harness4j.BAD_INPUT);
    }

    @Test
    void harnessesAndProvidersAreListedAndAnUnreachableProviderFailsItsCheck() throws Exception {
        assertThat(run("harnesses", "list")).isZero();
        assertThat(out.toString()).contains("claude-code", "opencode", "aider");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        ProvidersFile.write(ProvidersFile.in(tmp.resolve("state")),
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:" + port), "scripted-a")));
        String state = tmp.resolve("state").toString();
        assertThat(run("providers", "list", "--state-dir", state)).isZero();
        assertThat(out.toString()).contains("scripted", "127.0.0.1:" + port);
        assertThat(run("providers", "check", "--state-dir", state)).isEqualTo(Harness4j.FAILED);
        assertThat(out.toString()).contains("unhealthy");
    }
}
