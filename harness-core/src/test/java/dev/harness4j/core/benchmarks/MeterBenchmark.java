package dev.harness4j.core.benchmarks;

import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.internal.meter.Meter;
import dev.harness4j.core.internal.meter.MeterReport;
import dev.harness4j.core.internal.meter.MeterRun;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * What the metering proxy adds on loopback: per request (a small non-streamed JSON answer, full
 * round trip) and to the time to first byte of a streamed answer, direct against through the
 * meter, round robin so load drifts hit both alike; then a 100 MB streamed answer through the
 * meter (run it with {@code -Xmx64m} to check the meter's memory is bounded). Args: {@code
 * [requests=2000] [streamMegabytes=100]}.
 *
 * <pre>
 * mvn -o -q -B -pl harness-core -am test-compile
 * mvn -o -q -B -pl harness-core dependency:build-classpath -Dmdep.outputFile=/tmp/core-cp.txt -Dmdep.includeScope=test
 * java -Xmx64m -cp harness-core/target/test-classes:harness-core/target/classes:harness-api/target/classes:$(cat /tmp/core-cp.txt) \
 *     dev.harness4j.core.benchmarks.MeterBenchmark 2000 100
 * </pre>
 */
public final class MeterBenchmark {
    private static final byte[] SMALL = ("{\"id\":\"msg_1\",\"type\":\"message\",\"model\":\"bench-model\",\"content\":[{\"type\":"
            + "\"text\",\"text\":\"hello\"}],\"usage\":{\"input_tokens\":1234,\"output_tokens\":56,"
            + "\"cache_read_input_tokens\":200,\"cache_creation_input_tokens\":100}}").getBytes(StandardCharsets.UTF_8);
    private static final byte[] FIRST_EVENT = ("event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"model\":\"bench-model\",\"usage\":{\"input_tokens\":1234,\"output_tokens\":1}}}\n\n")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] DELTA = ("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"" + "x".repeat(900) + "\"}}\n\n").getBytes(StandardCharsets.UTF_8);
    private static final byte[] LAST = ("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":56}}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n").getBytes(StandardCharsets.UTF_8);

    private MeterBenchmark() {}

    public static void main(String[] args) throws Exception {
        // as the meter and the scripted model server do, before the first JDK HTTP server: without
        // TCP_NODELAY a small write after the headers waits for the peer's delayed ACK (~40 ms)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int megabytes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        HttpServer up = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        up.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }));
        up.createContext("/v1/messages", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().set("content-type", "application/json");
            ex.sendResponseHeaders(200, SMALL.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(SMALL);
            }
        });
        up.createContext("/v1/stream/messages", ex -> {
            ex.getRequestBody().readAllBytes();
            long bytes = Long.parseLong(ex.getRequestURI().getQuery().substring("bytes=".length()));
            ex.getResponseHeaders().set("content-type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(FIRST_EVENT);
                out.flush();
                for (long sent = 0; sent < bytes; sent += DELTA.length) {
                    out.write(DELTA);
                }
                out.write(LAST);
            }
        });
        up.start();
        URI direct = URI.create("http://127.0.0.1:" + up.getAddress().getPort());
        Path tmp = Files.createTempDirectory("h4j-meter-bench");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Meter meter = Meter.start()) {
            MeterRun run = meter.open("bench", new ResolvedProvider("bench", EnumSet.of(ApiStyle.ANTHROPIC), direct,
                    Secret.of("sk-bench"), AuthScheme.API_KEY, "bench-model"), MeterRun.Hooks.NONE, Limits.NONE, null,
                    tmp.resolve("requests.jsonl"));
            URI metered = URI.create(run.provider().rootUrl());
            for (int i = 0; i < n / 4; i++) { // warm-up: JIT, connection pools
                request(client, direct, false);
                request(client, metered, false);
                request(client, direct, true);
                request(client, metered, true);
            }
            long[][] small = new long[2][n];
            long[][] ttfb = new long[2][n];
            for (int i = 0; i < n; i++) {
                small[0][i] = request(client, direct, false);
                small[1][i] = request(client, metered, false);
                ttfb[0][i] = request(client, direct, true);
                ttfb[1][i] = request(client, metered, true);
            }
            System.out.printf("loopback, %d requests each, round robin (microseconds)%n", n);
            report("round trip, small JSON", small);
            report("time to first byte, SSE", ttfb);

            long bytes = megabytes * 1024L * 1024L;
            long t0 = System.nanoTime();
            HttpResponse<InputStream> resp = client.send(HttpRequest.newBuilder(URI.create(metered
                    + "/v1/stream/messages?bytes=" + bytes)).POST(HttpRequest.BodyPublishers.ofString(
                    "{\"model\":\"bench-model\",\"stream\":true}")).build(), HttpResponse.BodyHandlers.ofInputStream());
            long got = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = resp.body()) {
                for (int r; (r = in.read(buf)) >= 0; ) {
                    got += r;
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            MeterReport report = run.finish();
            Runtime rt = Runtime.getRuntime();
            System.out.printf("streamed %,d bytes through the meter in %.2f s (%.0f MB/s), max heap %d MB; "
                    + "metered: input %s, output %s, answered %s%n", got, secs, got / 1048576.0 / secs,
                    rt.maxMemory() / 1048576, report.tokens().input(), report.tokens().output(), report.answered());
        } finally {
            up.stop(0);
        }
    }

    private static long request(HttpClient client, URI base, boolean stream) throws Exception {
        URI uri = URI.create(base + (stream ? "/v1/stream/messages?bytes=20000" : "/v1/messages"));
        long t0 = System.nanoTime();
        HttpResponse<InputStream> resp = client.send(HttpRequest.newBuilder(uri).header("x-api-key", "sk-bench")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"bench-model\",\"max_tokens\":100}")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        long elapsed;
        try (InputStream in = resp.body()) {
            if (stream) {
                in.read();
                elapsed = System.nanoTime() - t0;
                in.readAllBytes();
            } else {
                in.readAllBytes();
                elapsed = System.nanoTime() - t0;
            }
        }
        return elapsed / 1000;
    }

    private static void report(String what, long[][] t) {
        long[] d = t[0].clone();
        long[] m = t[1].clone();
        Arrays.sort(d);
        Arrays.sort(m);
        List<Long> added = new ArrayList<>();
        for (int i = 0; i < t[0].length; i++) {
            added.add(t[1][i] - t[0][i]);
        }
        added.sort(null);
        System.out.printf("%-26s direct median %5d p90 %5d | metered median %5d p90 %5d | added median %5d%n", what,
                d[d.length / 2], d[d.length * 9 / 10], m[m.length / 2], m[m.length * 9 / 10], added.get(added.size() / 2));
    }
}
