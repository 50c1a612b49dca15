package dev.harness4j.examples;

import dev.harness4j.core.Installations;
import dev.harness4j.testkit.Clis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A real LiteLLM proxy ({@code litellm[proxy]}, installed by {@code scripts/install-clis.sh} into
 * {@code $HARNESS4J_TOOLS/litellm-venv}) on loopback, started from a config file this writes, for
 * tests. Without a database: model calls work, virtual keys and spend logs do not (LiteLLM needs
 * PostgreSQL and Prisma's engines for those). Its HOME, caches and log are in {@code dir}.
 */
final class LiteLlmProxy implements AutoCloseable {
    /** How long the proxy may take to answer {@code /health/readiness}: its imports take ~60 s on a loaded 2-core machine. */
    static final Duration READY_TIMEOUT = Duration.ofMinutes(4);

    private final Process process;
    private final int port;
    private final Path log;

    private LiteLlmProxy(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The proxy's executable, or skip (fail with {@code HARNESS4J_REQUIRE_CLIS=1}) the calling test. */
    static Path require() {
        Path exe = Installations.defaultToolsBin().resolve("litellm");
        if (!Files.isExecutable(exe)) {
            String msg = "the LiteLLM proxy is not installed at " + exe + "; run: bash scripts/install-clis.sh";
            if ("1".equals(System.getenv(Clis.REQUIRE_ENV)) || "true".equalsIgnoreCase(System.getenv(Clis.REQUIRE_ENV))) {
                Assertions.fail(msg + " [" + Clis.REQUIRE_ENV + " is set, so this is a failure]");
            }
            Assumptions.abort(msg);
        }
        return exe;
    }

    /**
     * Starts the proxy with {@code configYaml} (written to {@code dir/config.yaml}) and waits for
     * its readiness.
     */
    static LiteLlmProxy start(Path exe, Path dir, String configYaml) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("home"));
        Path config = Files.writeString(dir.resolve("config.yaml"), configYaml);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("litellm.log");
        ProcessBuilder pb = new ProcessBuilder(List.of(exe.toString(), "--config", config.toString(), "--host",
                "127.0.0.1", "--port", Integer.toString(port)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).directory(dir.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LITELLM_") || k.equals("DATABASE_URL")
                || k.endsWith("_API_KEY") || k.endsWith("_BASE_URL"));
        pb.environment().put("HOME", dir.resolve("home").toString());
        pb.environment().put("LITELLM_LOCAL_MODEL_COST_MAP", "True"); // no fetch of the price map from GitHub
        pb.environment().put("LITELLM_TELEMETRY", "False");
        pb.environment().put("NO_DOCS", "True");
        LiteLlmProxy proxy = new LiteLlmProxy(pb.start(), port, log);
        try {
            proxy.awaitReady();
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl() + "/health/readiness"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the LiteLLM proxy exited with " + process.exitValue() + " before it was ready: "
                        + tail());
            }
            try {
                if (http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            process.waitFor(500, TimeUnit.MILLISECONDS); // returns early only if it exits
        }
        throw new AssertionError("the LiteLLM proxy did not answer /health/readiness within " + READY_TIMEOUT + ": "
                + tail());
    }

    /** The end of the proxy's log, for failure messages. */
    String tail() throws IOException {
        String s = Files.exists(log) ? Files.readString(log) : "";
        return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
    }

    /** Stops the proxy and whatever it started; idempotent. */
    @Override
    public void close() {
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroy();
        tree.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
