package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchSummaryTest {
    @TempDir Path state;
    Path results;

    @BeforeEach
    void setUp() throws Exception {
        results = state.resolve("results");
        SyntheticMeta.write(results, "claude-code__scripted-a", SyntheticMeta.meta("claude-code", "scripted-a", "completed",
                12_300, 1, 1, 0, 100, 20, 0.0125, "match", "bench/claude"));
        SyntheticMeta.write(results, "aider__scripted-a", SyntheticMeta.meta("aider", "scripted-a", "error",
                61_000, 0, 0, 0, -1, -1, -1, "unmeasured", null));
        SyntheticMeta.write(results, "opencode__scripted-a", SyntheticMeta.meta("opencode", "scripted-a", "completed",
                5_000, 2, 10, 3, 400, 50, -1, "mismatch", null));
        Files.createDirectories(results.resolve(SyntheticMeta.runDir("opencode__scripted-b"))); // never finished writing
        SyntheticMeta.write(results, "aider__scripted-b", "{not json");
        SyntheticMeta.write(results, "claude-code__scripted-b", "{\"schema_version\":1,\"harness\":\"claude-code\"}");
        Files.writeString(results.resolve("report.html"), "<html></html>"); // not a result
        SyntheticMeta.write(results, "claude-code__old", "{\"schema_version\":99,\"harness\":\"x\",\"outcome\":\"completed\"}");
    }

    @Test
    void readsEveryResultAndListsMissingUnreadableAndPartialOnesWithoutFailing() {
        BenchSummary s = BenchSummary.read(state);
        assertThat(s.rows()).extracting(ResultRow::dir)
                .containsExactly("hello/aider__scripted-a/run-1", "hello/claude-code__scripted-a/run-1",
                        "hello/opencode__scripted-a/run-1");
        assertThat(s.problems()).extracting(p -> p.dir() + ":" + p.kind().wireName()).containsExactly(
                "hello/aider__scripted-b/run-1:unreadable", "hello/claude-code__old/run-1:partial",
                "hello/claude-code__scripted-b/run-1:partial", "hello/opencode__scripted-b/run-1:missing");
        ResultRow aider = s.rows().get(0);
        assertThat(aider.tokensIn()).isNull();
        assertThat(aider.costUsd()).isNull();
        assertThat(aider.reason()).isEqualTo("exit 1, \"quoted\"");
        assertThat(s.rows().get(1).branch()).isEqualTo("bench/claude");
    }

    @Test
    void totalsCountUnmeasuredFiguresApartInsteadOfAsZero() {
        BenchSummary.Totals t = BenchSummary.read(state).totals();
        assertThat(t.results()).isEqualTo(3);
        assertThat(t.byOutcome()).containsEntry("completed", 2).containsEntry("error", 1);
        assertThat(t.tokensIn()).isEqualTo(500);
        assertThat(t.tokensInUnmeasured()).isEqualTo(1);
        assertThat(t.costUsd()).isEqualByComparingTo(new BigDecimal("0.0125"));
        assertThat(t.costUnmeasured()).isEqualTo(2);
        assertThat(SummaryFormat.totalsLine(t)).contains("cost: $0.0125 (2 unmeasured)").contains("4 unreadable");
    }

    @Test
    void theTableShowsEveryColumnAndSaysUnmeasuredNeverZero() {
        String table = SummaryFormat.table(BenchSummary.read(state));
        assertThat(table.lines().findFirst().orElseThrow())
                .contains("harness", "model", "outcome", "duration", "files", "+/-", "tokens in/out", "cost", "served", "branch");
        String aider = table.lines().filter(l -> l.split("\\s+")[1].equals("aider")).findFirst().orElseThrow();
        assertThat(aider).contains("error", "1m 01s", "unmeasured").doesNotContain("$0");
        String claude = table.lines().filter(l -> l.split("\\s+")[1].equals("claude-code")).findFirst().orElseThrow();
        assertThat(claude).contains("12.3s", "+1/-0", "100/20 (adapter)", "$0.0125 (cli-estimate)", "match", "bench/claude");
        assertThat(table).contains("missing: results/hello/opencode__scripted-b/run-1 (no meta.json)");
    }

    @Test
    void exportsJsonAndCsvWithUnmeasuredLeftEmpty() throws Exception {
        BenchSummary s = BenchSummary.read(state);
        JsonNode json = new ObjectMapper().readTree(SummaryFormat.json(s));
        assertThat(json.path("results")).hasSize(3);
        assertThat(json.path("results").get(0).get("tokens_in").isNull()).isTrue();
        assertThat(json.path("totals").path("cost_unmeasured").asInt()).isEqualTo(2);
        assertThat(json.path("problems")).hasSize(4);

        String csv = SummaryFormat.csv(s);
        assertThat(csv.lines()).hasSize(4);
        String aider = csv.lines().filter(l -> l.startsWith("hello/aider__")).findFirst().orElseThrow();
        assertThat(aider).contains("\"exit 1, \"\"quoted\"\"\"").contains(",,,"); // quoted reason, empty unmeasured cells
    }

    @Test
    void aClisFloatNoiseInItsCostIsRoundedForDisplayAndKeptExactInMetaJson(@TempDir Path other) throws Exception {
        String noisy = "0.009954000000000003"; // Claude Code's total_cost_usd, as its CLI printed it
        String meta = SyntheticMeta.meta("claude-code", "scripted-a", "completed", 1_000, 1, 1, 0, 100, 20, 0.0, "match",
                null).replace("\"usd\":0.000000", "\"usd\":" + noisy);
        assertThat(meta).contains(noisy);
        SyntheticMeta.write(other.resolve("results"), "claude-code__scripted-a", meta);
        BenchSummary s = BenchSummary.read(other);
        assertThat(s.rows().get(0).costUsd()).as("read exact").isEqualByComparingTo(noisy);

        JsonNode json = new ObjectMapper().readTree(SummaryFormat.json(s));
        assertThat(json.path("results").get(0).path("cost_usd").asText()).isEqualTo("0.009954");
        assertThat(json.path("totals").path("cost_usd").asText()).isEqualTo("0.009954");
        assertThat(SummaryFormat.csv(s)).contains(",0.009954,cli-estimate,").doesNotContain(noisy);
        assertThat(SummaryFormat.table(s)).contains("$0.0100 (cli-estimate)").doesNotContain(noisy);
        assertThat(Files.readString(HtmlReport.write(s, other.resolve("report.html")))).doesNotContain(noisy);
        assertThat(SummaryFormat.figure(new BigDecimal("2.500000"))).hasToString("2.5");
        assertThat(SummaryFormat.figure(new BigDecimal("100"))).hasToString("100");
        assertThat(Files.readString(other.resolve("results").resolve(SyntheticMeta.runDir("claude-code__scripted-a"))
                .resolve("meta.json"))).contains(noisy);
    }

    @Test
    void anAbsentResultsDirectoryIsAnEmptySummary() {
        BenchSummary s = BenchSummary.read(state.resolve("nowhere"));
        assertThat(s.rows()).isEmpty();
        assertThat(SummaryFormat.totalsLine(s.totals())).startsWith("0 results");
    }

    @Test
    void theHtmlReportHoldsTheTableAndABarPerMeasuredFigure() throws Exception {
        BenchSummary s = BenchSummary.read(state);
        Path html = HtmlReport.write(s, state.resolve("report.html"));
        String text = Files.readString(html);
        assertThat(text).contains("<table id=\"results\"", "id=\"chart-duration\"", "id=\"chart-tokens\"", "id=\"chart-cost\"")
                .doesNotContain("http://", "https://", "<script", "<link");
        // duration: 3 bars; tokens: in+out for 2 measured rows; cost: 1 measured row
        assertThat(text.split("<rect class=\"bar", -1)).hasSize(1 + 3 + 4 + 1);
        assertThat(text).contains(">unmeasured</text>");
        assertThat(HtmlReport.esc("<a href='x'>&")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&amp;");
    }
}
