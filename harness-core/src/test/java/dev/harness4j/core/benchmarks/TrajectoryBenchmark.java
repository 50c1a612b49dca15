package dev.harness4j.core.benchmarks;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import dev.harness4j.core.workspace.Baseline;
import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the wire-derived trajectory of a recorded run of N model calls (default 10,000; each a
 * streamed Anthropic reply with a tool call, each next request carrying its result back, every
 * 100th result 200 KB so the cap cuts it) and prints the time and the peak heap. Meant to run
 * with a small heap ({@code -Xmx64m}) to show memory stays bounded. Usage: {@code
 * TrajectoryBenchmark [calls] [dir]}.
 */
public final class TrajectoryBenchmark {
    private TrajectoryBenchmark() {}

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Path dir = Files.createTempDirectory(args.length > 1 ? Path.of(args[1]) : Path.of(System.getProperty("java.io.tmpdir")),
                "trajectory-bench");
        Path io = dir.resolve("io");
        Path bodies = Files.createDirectories(io.resolve(RunTrajectory.BODIES));
        String big = "r".repeat(200_000);
        try (BufferedWriter index = Files.newBufferedWriter(bodies.resolve("index.jsonl"))) {
            for (int i = 1; i <= calls; i++) {
                String n = String.format(Locale.ROOT, "%06d", i);
                String result = i % 100 == 0 ? big : "output of call " + (i - 1);
                Files.writeString(bodies.resolve(n + ".request"), "{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"tu_" + (i - 1) + "\",\"content\":\""
                        + result + "\"}]}]}", StandardCharsets.UTF_8);
                Files.writeString(bodies.resolve(n + ".response"), "data: {\"type\":\"message_start\",\"message\":"
                        + "{\"model\":\"m-1\"}}\n\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"text_delta\",\"text\":\"step " + i + "\"}}\n\ndata: {\"type\":\"content_block_start\","
                        + "\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"tu_" + i + "\",\"name\":\"Bash\"}}\n\n"
                        + "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
                        + "\"partial_json\":\"{\\\"command\\\":\\\"ls\\\"}\"}}\n\n", StandardCharsets.UTF_8);
                index.write("{\"n\":\"" + n + "\",\"at\":\"2026-12-01T10:00:00Z\",\"status\":200,\"answered_model\":\"m-1\","
                        + "\"measured\":true,\"usage\":{\"input\":100,\"output\":10,\"cache_read\":5,\"cache_write\":0},"
                        + "\"content_type\":\"text/event-stream\",\"content_encoding\":\"identity\"}\n");
            }
        }
        long c = calls;
        RunRecord record = RunRecord.builder("bench-run", RunSpec.builder("bench", "p").model("m").prompt("go")
                        .baseline(dir).build())
                .providerName("p").resolvedModel("m").baseline(new Baseline(dir, "HEAD", "0".repeat(40), "main", false))
                .result(HarnessResult.builder(Outcome.COMPLETED, "m")
                        .tokens(new TokenUsage(100 * c, 10 * c, 5 * c, 0L, TokenUsage.Source.METERED)).build())
                .meter(new MeterSummary(calls, calls, calls, new TokenUsage(100 * c, 10 * c, 5 * c, 0L,
                        TokenUsage.Source.METERED), List.of("m-1"), null))
                .startedAt(Instant.now()).finishedAt(Instant.now()).resultDir(dir).build();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        long t0 = System.nanoTime();
        Path out = dir.resolve("trajectory.json");
        boolean ok = RunTrajectory.write(out, record, new Quiet(), null, io, null, Redactor.of(Set.of("sk-none")));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf(Locale.ROOT, "trajectory of %d wire calls: written=%s in %d ms, %.1f MB, peak heap %.1f MB "
                + "(max heap %.0f MB)%n", calls, ok, ms, Files.size(out) / 1e6, peak / 1e6,
                Runtime.getRuntime().maxMemory() / 1e6);
    }

    /** An adapter that tells no trajectory: the wire is read. */
    private static final class Quiet implements Harness {
        @Override public String id() { return "bench"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("true", List.of(), "none"); }
        @Override public Invocation prepare(HarnessContext ctx) { throw new UnsupportedOperationException(); }
        @Override public HarnessResult interpret(Execution ex) { throw new UnsupportedOperationException(); }
    }
}
