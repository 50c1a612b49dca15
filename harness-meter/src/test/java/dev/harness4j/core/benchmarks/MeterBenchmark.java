package dev.harness4j.core.benchmarks;

import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.meter.internal.Meter;
import dev.harness4j.meter.internal.MeterReport;
import dev.harness4j.meter.internal.MeterRun;
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
 * meter without a key to swap against through the meter swapping the run's token for the real key,
 * round robin so load drifts hit all three alike; then a 100 MB streamed answer through the
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
            // the same forwarding with and without the credential swap: a keyless provider passes the
            // client's key header on untouched; a keyed one checks the run's token and swaps the real key in
            MeterRun plain = meter.open("bench-plain", provider(direct, null), MeterRun.Hooks.NONE, Limits.NONE, null,
                    tmp.resolve("requests-plain.jsonl"));
            MeterRun run = meter.open("bench", provider(direct, Secret.of("sk-bench-real-key")), MeterRun.Hooks.NONE,
                    Limits.NONE, null, tmp.resolve("requests.jsonl"));
            URI unswapped = URI.create(plain.provider().rootUrl());
            URI metered = URI.create(run.provider().rootUrl());
            String token = run.provider().secret().reveal();
            for (int i = 0; i < n / 4; i++) { // warm-up: JIT, connection pools
                for (boolean stream : new boolean[] {false, true}) {
                    request(client, direct, "sk-bench", stream);
                    request(client, unswapped, "sk-bench", stream);
                    request(client, metered, token, stream);
                }
            }
            long[][] small = new long[3][n];
            long[][] ttfb = new long[3][n];
            for (int i = 0; i < n; i++) {
                small[0][i] = request(client, direct, "sk-bench", false);
                small[1][i] = request(client, unswapped, "sk-bench", false);
                small[2][i] = request(client, metered, token, false);
                ttfb[0][i] = request(client, direct, "sk-bench", true);
                ttfb[1][i] = request(client, unswapped, "sk-bench", true);
                ttfb[2][i] = request(client, metered, token, true);
            }
            plain.finish();
            System.out.printf("loopback, %d requests each, round robin (microseconds); metered = no key to swap, "
                    + "swapped = the run's token checked and the real key swapped in%n", n);
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

    private static ResolvedProvider provider(URI direct, Secret key) {
        return new ResolvedProvider("bench", EnumSet.of(ApiStyle.ANTHROPIC), direct, key, AuthScheme.API_KEY,
                "bench-model");
    }

    private static long request(HttpClient client, URI base, String key, boolean stream) throws Exception {
        URI uri = URI.create(base + (stream ? "/v1/stream/messages?bytes=20000" : "/v1/messages"));
        long t0 = System.nanoTime();
        HttpResponse<InputStream> resp = client.send(HttpRequest.newBuilder(uri).header("x-api-key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"bench-model\",\"max_tokens\":100}")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (resp.statusCode() != 200) {
            throw new IllegalStateException("the benchmark's request to " + uri + " got " + resp.statusCode());
        }
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
        System.out.printf("%-26s direct %s | metered %s (+%d) | swapped %s (+%d) | swap added median %d%n", what,
                stats(t[0]), stats(t[1]), addedMedian(t[1], t[0]), stats(t[2]), addedMedian(t[2], t[0]),
                addedMedian(t[2], t[1]));
    }

    private static String stats(long[] t) {
        long[] s = t.clone();
        Arrays.sort(s);
        return String.format("median %5d p90 %5d", s[s.length / 2], s[s.length * 9 / 10]);
    }

    /** The median of the per-round differences {@code b[i] - a[i]}. */
    private static long addedMedian(long[] b, long[] a) {
        List<Long> added = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            added.add(b[i] - a[i]);
        }
        added.sort(null);
        return added.get(added.size() / 2);
    }
}
