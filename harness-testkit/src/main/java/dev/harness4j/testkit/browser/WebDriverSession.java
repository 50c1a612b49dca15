package dev.harness4j.testkit.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assertions;

/**
 * A headless Chromium driven through chromedriver's W3C WebDriver HTTP API with the JDK's client
 * (no Selenium): open a URL, run a script, click, take a screenshot. Fails with the install
 * command when Debian's chromium or chromium-driver is missing.
 */
public final class WebDriverSession implements AutoCloseable {
    /** How long a wait for the page lasts at most: 90 s. */
    public static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Process driver;
    private final URI base;
    private final String session;

    /**
     * Starts chromedriver on a free loopback port and a headless Chromium session (its profile
     * and chromedriver's log under {@code scratch}); fails the test with the install command when
     * Debian's {@code chromium} or {@code chromium-driver} is missing.
     *
     * @param scratch a directory the session may write to (a test's temp dir)
     */
    public WebDriverSession(Path scratch) throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        Path chromedriver = Path.of("/usr/bin/chromedriver");
        if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
            Assertions.fail("chromium and chromedriver are needed (" + chromium + ", " + chromedriver
                    + "); run: apt-get install -y chromium chromium-driver (scripts/test.sh does)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        driver = new ProcessBuilder(chromedriver.toString(), "--port=" + port)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(scratch.resolve("chromedriver.log").toFile()).redirectErrorStream(true).start();
        base = URI.create("http://127.0.0.1:" + port);
        JsonNode created = null;
        Instant until = Instant.now().plusSeconds(30);
        while (created == null) {
            try {
                created = call("POST", "/session", Map.of("capabilities", Map.of("alwaysMatch", Map.of(
                        "browserName", "chrome", "goog:chromeOptions", Map.of("binary", chromium.toString(), "args",
                                List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                        "--user-data-dir=" + Files.createTempDirectory(scratch, "profile"),
                                        "--window-size=1400,1000"))))));
            } catch (IOException e) {
                if (Instant.now().isAfter(until)) {
                    throw new IOException("chromedriver did not answer on " + base + " within 30 s", e);
                }
                Thread.sleep(200);
            }
        }
        session = created.path("value").path("sessionId").asText();
    }

    private JsonNode call(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method,
                        HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("WebDriver " + method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** Opens {@code url} in the browser's window and waits for the page to load. */
    public void open(String url) throws Exception {
        call("POST", "/session/" + session + "/url", Map.of("url", url));
    }

    /** Runs {@code script} (a function body) in the page; its return value. */
    public JsonNode script(String script) throws Exception {
        return call("POST", "/session/" + session + "/execute/sync", Map.of("script", script, "args", List.of()))
                .path("value");
    }

    /** Waits up to {@link #WAIT} until {@code script}'s value satisfies {@code ok}; returns it. */
    public JsonNode waitFor(String what, String script, Predicate<JsonNode> ok) throws Exception {
        Instant until = Instant.now().plus(WAIT);
        JsonNode v = null;
        while (Instant.now().isBefore(until)) {
            v = script(script);
            if (ok.test(v)) {
                return v;
            }
            Thread.sleep(250);
        }
        return Assertions.fail("the page did not show " + what + " within " + WAIT.toSeconds() + " s; last value: " + v);
    }

    /** Writes a PNG of the window's viewport to {@code png} (its directories created). */
    public void screenshot(Path png) throws Exception {
        String b64 = call("GET", "/session/" + session + "/screenshot", null).path("value").asText();
        Files.createDirectories(png.getParent());
        Files.write(png, Base64.getDecoder().decode(b64));
    }

    /** Ends the browser session and stops chromedriver and the browser; idempotent. */
    @Override
    public void close() {
        try {
            call("DELETE", "/session/" + session, null);
        } catch (Exception e) {
            // the browser is stopped with the driver below
        }
        driver.descendants().forEach(ProcessHandle::destroyForcibly);
        driver.destroyForcibly();
    }
}
