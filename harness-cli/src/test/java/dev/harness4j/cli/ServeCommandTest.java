package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j serve}'s edges over real HTTP, in a child JVM: the bind warning, the report's files, the bail's method. */
class ServeCommandTest {
    @TempDir Path tmp;
    private Process serve;
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() throws Exception {
        if (serve != null) {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private URI start(Path state, String... more) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Harness4j.class.getName(), "serve", "--state-dir", state.toString()));
        cmd.addAll(java.util.List.of(more));
        serve = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(tmp.resolve("serve.err").toFile()).start();
        String line = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("serve's first line").isNotNull().startsWith("watch it live: http://");
        return URI.create(line.substring("watch it live: ".length()));
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aNonLoopbackBindIsWarnedAbout() throws Exception {
        URI url = start(tmp.resolve("state"), "--bind", "0.0.0.0");
        assertThat(url.getHost()).isEqualTo("127.0.0.1");
        assertThat(get(url).statusCode()).isEqualTo(200);
        assertThat(Files.readString(tmp.resolve("serve.err"))).contains("WARNING: serving on 0.0.0.0, not loopback");
    }

    @Test
    void theStaticReportIsServedAndNothingOutsideIt() throws Exception {
        Path state = tmp.resolve("state");
        Files.writeString(Files.createDirectories(state.resolve("reports/b")).resolve("index.html"), "<p>the report</p>");
        Files.writeString(Files.createDirectories(state.resolve("config")).resolve("providers.json"), "{\"secret\":1}");
        URI url = start(state);
        String t = "?" + url.getRawQuery();
        assertThat(get(url.resolve("/report/b/index.html" + t)).body()).isEqualTo("<p>the report</p>");
        HttpResponse<String> escape = get(url.resolve("/report/b/%2e%2e/%2e%2e/config/providers.json" + t));
        assertThat(escape.statusCode()).isEqualTo(404);
        assertThat(escape.body()).doesNotContain("secret");
        assertThat(get(url.resolve("/report/b/index.html")).statusCode()).as("without the token").isEqualTo(403);
    }

    @Test
    void aBailIsAPostWithTheTokenHeaderAndWritesOnlyARequest() throws Exception {
        Path state = tmp.resolve("state");
        URI url = start(state);
        String token = url.getRawQuery().substring(2);
        URI bail = url.resolve("/bail/run/r-1");
        assertThat(get(URI.create(bail + "?t=" + token)).statusCode()).as("a GET, even with the token").isEqualTo(403);
        assertThat(http.send(HttpRequest.newBuilder(bail).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("a POST without the header").isEqualTo(403);
        assertThat(Files.exists(state.resolve("bail-requests"))).isFalse();
        HttpResponse<String> ok = http.send(HttpRequest.newBuilder(bail).header("X-Harness4j-Token", token)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(state.resolve("bail-requests/run-r-1")).exists();
        try (var all = Files.walk(state)) {
            assertThat(all.filter(Files::isRegularFile).map(p -> state.relativize(p).toString()))
                    .as("serve wrote nothing else").containsExactly("bail-requests/run-r-1");
        }
    }
}
