package dev.harness4j.testkit.benchmarks;

import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/**
 * Measures how fast the scripted model server starts and answers. Run from the repository root:
 * <pre>
 * mvn -o -q -pl harness-testkit -am test-compile
 * mvn -o -q -pl harness-testkit dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -cp harness-testkit/target/test-classes:harness-testkit/target/classes:harness-core/target/classes:\
 *   harness-api/target/classes:$(cat /tmp/cp.txt) dev.harness4j.testkit.bench.ScriptedModelServerBenchmark
 * </pre>
 */
public final class ScriptedModelServerBenchmark {

    private ScriptedModelServerBenchmark() {}

    /** Arguments: server starts to time (default 200), calls per mode (default 500). */
    public static void main(String[] args) throws Exception {
        final int STARTS = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        final int CALLS = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        long[] starts = new long[STARTS];
        for (int i = -Math.min(20, STARTS); i < STARTS; i++) {
            long t0 = System.nanoTime();
            try (ScriptedModelServer s = ScriptedModelServer.start()) {
                if (i >= 0) {
                    starts[i] = System.nanoTime() - t0;
                }
            }
        }
        report("start (until listening)", starts);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            server.script("m", Scenario.empty());
            for (boolean stream : new boolean[] {false, true}) {
                String body = "{\"model\":\"m\",\"max_tokens\":10,\"stream\":" + stream
                        + ",\"tools\":[{\"name\":\"Write\",\"input_schema\":{}}],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
                HttpRequest req = HttpRequest.newBuilder(server.baseUrl().resolve("/v1/messages"))
                        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
                long[] calls = new long[CALLS];
                for (int i = -Math.min(50, CALLS); i < CALLS; i++) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("answer " + r.statusCode() + ": " + r.body());
                    }
                    if (i >= 0) {
                        calls[i] = System.nanoTime() - t0;
                    }
                    server.clearRequests();
                }
                report("anthropic turn round trip, stream=" + stream, calls);
            }
        }
    }

    private static void report(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf("%-42s n=%d median=%.2f ms p95=%.2f ms max=%.2f ms%n", what, s.length,
                s[s.length / 2] / 1e6, s[(int) (s.length * 0.95)] / 1e6, s[s.length - 1] / 1e6);
    }
}
