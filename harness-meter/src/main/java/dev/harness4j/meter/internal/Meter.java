package dev.harness4j.meter.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.provider.ModelPrice;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metering proxy of one runner: a loopback HTTP server on an ephemeral port. Each run gets a
 * {@link MeterRun} whose base URL is {@code http://127.0.0.1:<port>/r/<token>} (plus {@code /v1}
 * when the real one ends so), with a random 128-bit token; the meter forwards what arrives there
 * byte for byte to the real endpoint and reads the wire on the way. A request without a live
 * run's path is refused (404) and forwarded nowhere. The run's provider holds a per-run token in
 * place of the real key ({@link CredentialSwap}), which the meter swaps back on the way upstream;
 * a key that is not the live run's token is refused (401). Thread-safe; {@link #close()} is
 * idempotent.
 *
 * <p>Loading it sets the JVM-wide system property {@code sun.net.httpserver.nodelay} to {@code
 * true} unless already set: without TCP_NODELAY, every streamed chunk could wait ~40 ms for a
 * delayed ACK.
 */
public final class Meter implements AutoCloseable {
    /** How long connecting to the real endpoint may take: 10 s. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long the real endpoint may take to answer a request's headers: 15 min (non-streamed model calls are slow). */
    public static final Duration RESPONSE_TIMEOUT = Duration.ofMinutes(15);
    /** How long closing a run lets its requests in flight end by themselves before cancelling them: 1 s. */
    public static final Duration FINISH_GRACE = Duration.ofSeconds(1);
    /** How long closing a run waits for its requests in flight to be recorded after cancelling them: 5 s. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    static final String PREFIX = "/r/";
    private static final Logger log = LoggerFactory.getLogger(Meter.class);

    static {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    final HttpClient client;
    final ObjectMapper json = new ObjectMapper(); // no Secret is ever in a request record or a body index
    private final Map<String, MeterRun> runs = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final AtomicBoolean closed = new AtomicBoolean();

    private Meter() throws IOException {
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "harness4j-meter-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).executor(executor).build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /**
     * Starts a meter on a loopback ephemeral port.
     *
     * @throws HarnessException when no port can be bound
     */
    public static Meter start() {
        try {
            return new Meter();
        } catch (IOException e) {
            throw new HarnessException("could not start the metering proxy on a loopback port: " + e
                    + " (turn metering off with HarnessRunner.builder().metering(false))", e);
        }
    }

    /** The port the meter listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Opens a run's metering: its provider now points at the meter, with a per-run token for a
     * key (none when {@code real} has none).
     *
     * @param runId the run's id (for logs)
     * @param real the real endpoint
     * @param hooks told about activity and a passed budget
     * @param limits the run's limits (the budget ones are checked)
     * @param price the model's price, or {@code null}
     * @param requestsFile where the per-request records go (JSON lines), created
     */
    public MeterRun open(String runId, ResolvedProvider real, MeterRun.Hooks hooks, Limits limits, ModelPrice price,
            Path requestsFile) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("the meter is closed");
        }
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = HexFormat.of().formatHex(b);
        String v1 = real.baseUrl().toString().replaceAll("/+$", "").endsWith("/v1") ? "/v1" : "";
        URI base = URI.create("http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + port() + PREFIX
                + token + v1);
        CredentialSwap credential = CredentialSwap.of(real.secret(), random);
        MeterRun run = new MeterRun(this, runId, token, credential, real, new ResolvedProvider(real.name(),
                real.apiStyles(), base, credential.token(), real.auth(), real.model()), hooks, limits, price, requestsFile);
        runs.put(token, run);
        return run;
    }

    /**
     * Opens a run's metering as {@link #open(String, ResolvedProvider, MeterRun.Hooks, Limits, ModelPrice, Path)}
     * does, also keeping its model calls' bodies in {@code bodiesDir} (see {@link BodyRecorder}),
     * each cut at {@code maxBodyBytes}.
     */
    public MeterRun open(String runId, ResolvedProvider real, MeterRun.Hooks hooks, Limits limits, ModelPrice price,
            Path requestsFile, Path bodiesDir, long maxBodyBytes) throws IOException {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be positive, was " + maxBodyBytes);
        }
        MeterRun run = open(runId, real, hooks, limits, price, requestsFile);
        run.bodies = new BodyRecorder(bodiesDir, maxBodyBytes, json);
        return run;
    }

    void unregister(String token) {
        runs.remove(token);
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        MeterRun run = null;
        String rest = null;
        if (path != null && path.startsWith(PREFIX)) {
            int end = path.indexOf('/', PREFIX.length());
            String token = end < 0 ? path.substring(PREFIX.length()) : path.substring(PREFIX.length(), end);
            run = runs.get(token);
            rest = end < 0 ? "" : path.substring(end);
        }
        if (run == null) {
            if (CredentialSwap.carriesKey(ex.getRequestHeaders(), ex.getRequestURI().getRawQuery())) {
                refuse(ex, 401, CredentialSwap.NOT_LIVE); // a finished run's token, or a made-up one
            } else {
                refuse(ex, 404, "no live harness4j run has this path");
            }
            return;
        }
        new Forwarding(this, run, ex, rest).run();
    }

    /** Answers a request the meter will not forward; the body says why. Never forwards anything. */
    static void refuse(HttpExchange ex, int status, String why) throws IOException {
        try (ex) {
            ex.getRequestBody().close();
            byte[] body = ("{\"type\":\"error\",\"error\":{\"type\":\"harness4j_meter\",\"message\":\"" + why + "\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("content-type", "application/json");
            ex.sendResponseHeaders(status, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops the server; runs still open are closed (their requests in flight cancelled). Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (MeterRun r : runs.values()) {
            try {
                r.close();
            } catch (RuntimeException e) {
                log.debug("closing a metered run failed: {}", e.toString());
            }
        }
        server.stop(0);
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.debug("meter threads still running {} after close", CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
