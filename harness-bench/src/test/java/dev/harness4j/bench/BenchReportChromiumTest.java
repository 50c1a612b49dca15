package dev.harness4j.bench;

import static dev.harness4j.bench.MetricsTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the bench report directory in headless Chromium from {@code file://}: the index's
 * leaderboard, grid and run list, a run page's coloured diff and verify log, and the grid's
 * colours in a screenshot. Skips when Chromium is missing (a failure with {@code HARNESS4J_REQUIRE_CLIS=1}).
 */
class BenchReportChromiumTest {
    @TempDir Path dir;
    private Path chromium;
    private Path index;

    @BeforeEach
    void setUp() throws Exception {
        chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser").stream().map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (chromium == null) {
            String msg = "chromium is not installed; run: apt-get install -y chromium (scripts/test.sh does)";
            if ("1".equals(System.getenv("HARNESS4J_REQUIRE_CLIS"))) {
                Assertions.fail(msg + " [HARNESS4J_REQUIRE_CLIS is set, so this is a failure]");
            }
            Assumptions.abort(msg);
        }
        Path results = dir.resolve("results");
        List<ResultRow> rows = new ArrayList<>();
        for (String task : List.of("b/greeting", "b/config")) {
            for (int trial = 1; trial <= 2; trial++) {
                rows.add(row("claude-code", "good", task, trial, "completed", "passed", 1.0, 2000L, 100L, new BigDecimal("0.01")));
                rows.add(row("aider", "bad", task, trial, "completed", "failed", 0.0, 3000L, null, null));
            }
        }
        for (ResultRow r : rows) {
            Path d = Files.createDirectories(results.resolve(r.dir()));
            Files.writeString(d.resolve("diff.patch"), "diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-old <line>\n+new line\n");
            Files.writeString(d.resolve("verify.log"), r.passed() ? "PASS: all good\n" : "FAIL: wrong answer\n");
            Files.writeString(d.resolve("events.jsonl"), "{\"at\":\"2026-12-01T10:00:00Z\",\"type\":\"status\",\"status\":\"running\"}\n"
                    + "{\"at\":\"2026-12-01T10:00:02Z\",\"type\":\"status\",\"status\":\"capturing\"}\n");
            Files.writeString(d.resolve("trajectory.json"), "{\"schema_version\":\"ATIF-v1.7\",\"session_id\":\"s\","
                    + "\"agent\":{\"name\":\"aider\",\"version\":\"1\"},\"steps\":[{\"step_id\":1,\"source\":\"user\","
                    + "\"message\":\"fix it\"},{\"step_id\":2,\"source\":\"agent\",\"message\":\"writing\","
                    + "\"tool_calls\":[{\"tool_call_id\":\"c1\",\"function_name\":\"write_file\",\"arguments\":{\"path\":\"x.txt\"}}]}]}");
        }
        index = BenchReport.write(results, rows, BenchMetrics.of(rows), null, dir.resolve("report"));
    }

    @Test
    void theIndexHasTheLeaderboardTheGridAndLinksToEveryRun() throws Exception {
        String dom = withoutScripts(chromium("--dump-dom", index));
        assertThat(dom).contains("id=\"leaderboard\"", "id=\"grid\"", "id=\"runs\"", "pass@2");
        assertThat(dom.split("<tr>", -1).length - 1).as("3 header rows, 2 leaderboard, 2 grid and 8 run rows").isEqualTo(15);
        assertThat(dom).contains("href=\"runs/0.html\"", "href=\"runs/7.html\"");
        assertThat(dom.indexOf("claude-code")).as("the better combo ranks first").isLessThan(dom.indexOf("aider"));
    }

    @Test
    void theRunListShowsAPageOfRunsAndSaysHowManyThereAre() throws Exception {
        List<ResultRow> many = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            many.add(row("aider", "m", i == 7 ? "b/</script><b>odd" : "b/t" + i, 1, "completed", "passed", 1.0, 1000L + i, null, null));
        }
        Path big = BenchReport.write(dir.resolve("results"), many, BenchMetrics.of(many), null, dir.resolve("big"));
        String dom = withoutScripts(chromium("--dump-dom", big));
        String runs = dom.substring(dom.indexOf("<h2>Runs</h2>"));
        assertThat(runs.split("<tr>", -1).length - 1).as("a header row and one page of runs").isEqualTo(1 + RunsTable.PAGE);
        assertThat(runs).contains("runs 1–100 of 250", "href=\"runs/99.html\"", "b/&lt;/script&gt;&lt;b&gt;odd")
                .doesNotContain("href=\"runs/100.html\"");
    }

    @Test
    void aRunPageShowsTheColouredDiffAndTheVerifyLog() throws Exception {
        String dom = chromium("--dump-dom", index.resolveSibling("runs").resolve("1.html"));
        assertThat(dom).contains("<span class=\"add\">+new line</span>", "<span class=\"del\">-old &lt;line&gt;</span>",
                "FAIL: wrong answer", "id=\"events\"", "<td>running</td><td class=\"num\">2.0 s</td>",
                "id=\"trajectory\"", "write_file", "x.txt");
    }

    @Test
    void theScreenshotShowsTheGridColouredByPassRate() throws Exception {
        Path png = dir.resolve("report.png");
        chromium("--screenshot=" + png, index);
        BufferedImage img = ImageIO.read(png.toFile());
        int green = 0;
        int red = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                green += near(rgb, 0xb3efb3) ? 1 : 0;
                red += near(rgb, 0xefb3b3) ? 1 : 0;
            }
        }
        assertThat(green).as("pixels of passing cells").isGreaterThan(500);
        assertThat(red).as("pixels of failing cells").isGreaterThan(500);
    }

    private String chromium(String action, Path page) throws Exception {
        List<String> cmd = List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(dir, "profile"), "--window-size=1400,1000", action,
                page.toUri().toString());
        Path out = dir.resolve("chromium.out");
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(dir.resolve("chromium.err").toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                Assertions.fail("chromium did not finish within 120 s");
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("chromium.err"))).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The rendered DOM without the scripts' source text (which holds the markup the page renders). */
    private static String withoutScripts(String dom) {
        return dom.replaceAll("(?s)<script>.*?</script>", "");
    }

    private static boolean near(int rgb, int target) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xff) - ((target >> shift) & 0xff)) > 6) {
                return false;
            }
        }
        return true;
    }
}
