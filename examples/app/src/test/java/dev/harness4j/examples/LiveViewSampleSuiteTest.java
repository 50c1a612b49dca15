package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.cli.Embedding;
import dev.harness4j.cli.Harness4j;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.browser.ChildJvm;
import dev.harness4j.testkit.browser.WebDriverSession;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code harness4j serve} on the main job's bench, in real headless Chromium: the bundled sample
 * suite × Claude Code × the two scripted models runs in this JVM ({@code bench run} against the
 * embedded scripted server, each answer paused by a {@code sleep} through the agent's shell tool so
 * that a run can be watched), {@code serve} in a child JVM on the same state dir. The bench page
 * shows a running run, then its completion without a reload; its run page shows output lines and
 * trajectory steps (the agent's tool calls, parsed by the adapter from the output so far)
 * arriving, then the finished run's timeline; the bench ends with every run completed and the
 * leaderboard on the page. Screenshots in {@code target/serve-screenshots/}.
 */
@RealCli
class LiveViewSampleSuiteTest {
    private static final Path SHOTS = Path.of("target", "serve-screenshots");
    @TempDir Path tmp;
    private ChildJvm serve;

    @AfterEach
    void stopServe() {
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void theSampleSuitesRunsAreWatchedLiveUntilTheBenchEnds() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        Path state = tmp.resolve("state");
        URI url = startServe(state);
        StringWriter benchOut = new StringWriter();
        String watched;
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY)) {
            CompletableFuture<Integer> bench = startBench(state, server, benchOut);
            try (WebDriverSession browser = new WebDriverSession(tmp)) {
                watched = watch(browser, url);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nthe bench printed:\n" + benchOut, e);
            }
            assertThat(bench.get(300, TimeUnit.SECONDS)).as(benchOut.toString()).isEqualTo(Harness4j.OK);
        }
        BenchSummary summary = BenchSummary.read(state);
        assertThat(summary.rows()).hasSize(8).allSatisfy(r -> assertThat(r.outcome()).as(r.dir()).isEqualTo("completed"));
        assertThat(summary.rows()).filteredOn(r -> r.dir().endsWith(watched)).extracting(ResultRow::model).hasSize(1);
    }

    /** Follows the bench and one of its runs in the browser; the run's id. */
    private static String watch(WebDriverSession browser, URI url) throws Exception {
        String watched;
        browser.open(url.toString());
        browser.open(url.resolve("/bench/sample").toString());
        browser.script("window.notReloaded = true; return 1;");
        watched = browser.waitFor("a running run", "return [...document.querySelectorAll("
                + "'#running tr.running td:first-child')].map(e => e.innerText);", v -> v.size() >= 1)
                .get(0).asText();
        browser.screenshot(SHOTS.resolve("sample-bench-running.png"));

        browser.open(url.resolve("/run/" + watched).toString());
        browser.script("window.notReloaded = true; return 1;");
        JsonNode step = browser.waitFor("a trajectory step of the output so far", "return window.notReloaded"
                + " === true ? [...document.querySelectorAll('#steps li')].map(e => e.textContent) : [];",
                v -> v.size() >= 1);
        assertThat(step.toString()).as("the scripted pause, a Bash tool call").contains("sleep");
        int lines = browser.script("return document.querySelectorAll('#transcript .line').length;").asInt();
        assertThat(lines).as("output lines came with the step").isPositive();
        browser.waitFor("more output lines arriving, or the run's end", "const s = document.getElementById("
                + "'status'); return (window.notReloaded === true && document.querySelectorAll('#transcript"
                + " .line').length > " + lines + ") || (s && s.innerText.startsWith('completed'));",
                v -> v.asBoolean());
        browser.screenshot(SHOTS.resolve("sample-run-live.png"));
        browser.waitFor("the run's end: its result, its timeline", "const s = document.getElementById('status');"
                + " return s && s.innerText.startsWith('completed') && !!document.getElementById('events');",
                v -> v.asBoolean());
        browser.screenshot(SHOTS.resolve("sample-run-done.png"));

        browser.open(url.resolve("/bench/sample").toString());
        browser.script("window.notReloaded = true; return 1;");
        browser.waitFor("every run finished without a reload", "return window.notReloaded === true"
                + " && document.querySelectorAll('#running tr.running').length === 0"
                + " && document.querySelectorAll('#finished tr td.completed').length;", v -> v.asInt() == 8);
        assertThat(browser.script("return document.getElementById('finished').innerText;").asText())
                .contains(watched);
        assertThat(browser.script("return document.getElementById('leaderboard').innerText;").asText())
                .contains("claude-code").contains("scripted-a").contains("scripted-b");
        browser.screenshot(SHOTS.resolve("sample-bench-done.png"));
        return watched;
    }

    /** The sample suite × claude-code × scripted-a, scripted-b, one trial, two at a time, in this JVM. */
    private CompletableFuture<Integer> startBench(Path state, ScriptedModelServer server, StringWriter out)
            throws Exception {
        SampleSuite.extract(state);
        List.of("scripted-a", "scripted-b").forEach(m -> server.script(m, BenchMain.scenario(m))); // the plan's check
        Embedding embedding = new Embedding(new ScriptedProvider(server),
                exec -> BenchMain.rescripting(exec, server, Duration.ofSeconds(3)), Map.of("stream", "false"));
        PrintWriter w = new PrintWriter(out, true);
        return CompletableFuture.supplyAsync(() -> Harness4j.run(w, w, embedding, "bench", "run", "--state-dir",
                state.toString(), "--suite", state.resolve(SampleSuite.ID).toString(), "--provider", ScriptedProvider.NAME,
                "--model", "scripted-a,scripted-b", "--harness", "claude-code", "--trials", "1", "--concurrency", "2",
                "--id", "sample"));
    }

    /** {@code harness4j serve} in a child JVM; the URL it prints. */
    private URI startServe(Path state) throws Exception {
        serve = ChildJvm.start(tmp, Harness4j.class.getName(), List.of(), List.of("serve", "--state-dir", state.toString()),
                "watch it live: ");
        return URI.create(serve.rest());
    }
}
