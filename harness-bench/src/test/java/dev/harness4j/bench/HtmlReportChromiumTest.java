package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the HTML report in headless Chromium (Debian's {@code chromium}, installed by {@code
 * scripts/test.sh}): the DOM it built holds the three charts and their bars, and the screenshot
 * shows the bars' colour. Skips when Chromium is missing, fails then with {@code
 * HARNESS4J_REQUIRE_CLIS=1}.
 */
class HtmlReportChromiumTest {
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir Path dir;
    Path chromium;
    Path report;

    @BeforeEach
    void setUp() throws Exception {
        chromium = findChromium().orElse(null);
        if (chromium == null) {
            String msg = "chromium is not installed; run: apt-get install -y chromium (scripts/test.sh does)";
            String req = System.getenv("HARNESS4J_REQUIRE_CLIS");
            if ("1".equals(req) || "true".equalsIgnoreCase(req)) {
                Assertions.fail(msg + " [HARNESS4J_REQUIRE_CLIS is set, so this is a failure]");
            }
            Assumptions.abort(msg);
        }
        Path results = dir.resolve("state").resolve("results");
        SyntheticMeta.write(results, "claude-code__scripted-a", SyntheticMeta.meta("claude-code", "scripted-a", "completed",
                42_000, 1, 1, 0, 1200, 300, 0.05, "match", null));
        SyntheticMeta.write(results, "opencode__scripted-a", SyntheticMeta.meta("opencode", "scripted-a", "completed",
                20_000, 1, 1, 0, 800, 150, -1, "unmeasured", null));
        SyntheticMeta.write(results, "aider__scripted-b", SyntheticMeta.meta("aider", "scripted-b", "no-op",
                9_000, 0, 0, 0, -1, -1, -1, "unmeasured", null));
        report = HtmlReport.write(BenchSummary.read(dir.resolve("state")), dir.resolve("report.html"));
    }

    @Test
    void chromiumRendersTheChartsWithTheirBars() throws Exception {
        String dom = runChromium("--dump-dom");
        assertThat(dom).contains("id=\"chart-duration\"", "id=\"chart-tokens\"", "id=\"chart-cost\"", "id=\"results\"");
        assertThat(count(dom, "<rect class=\"bar\"")).as("duration bars").isEqualTo(3);
        assertThat(count(dom, "<rect class=\"bar in\"")).as("input-token bars").isEqualTo(2);
        assertThat(count(dom, "<rect class=\"bar out\"")).as("output-token bars").isEqualTo(2);
        assertThat(count(dom, "<rect class=\"bar cost\"")).as("cost bars").isEqualTo(1);
    }

    @Test
    void theScreenshotShowsTheBars() throws Exception {
        Path png = dir.resolve("report.png");
        runChromium("--screenshot=" + png);
        assertThat(png).exists();
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(1200);
        int barPixels = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                if (near(rgb, 0x3b6fd8)) {
                    barPixels++;
                }
            }
        }
        // three duration bars and two input-token bars, each 18 px high and tens to hundreds of px wide
        assertThat(barPixels).as("pixels in the bar colour").isGreaterThan(2_000);
    }

    private String runChromium(String action) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + Files.createTempDirectory(dir, "chromium-profile"),
                "--window-size=1200,900", action, report.toUri().toString()));
        Path out = dir.resolve("chromium.out");
        Path err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                Assertions.fail("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + Files.readString(err));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as(Files.readString(err, StandardCharsets.UTF_8)).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static Optional<Path> findChromium() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String d : path.split(File.pathSeparator)) {
                Path c = Path.of(d, name);
                if (!d.isBlank() && Files.isExecutable(c)) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
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
