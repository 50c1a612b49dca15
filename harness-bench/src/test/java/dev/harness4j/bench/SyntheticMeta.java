package dev.harness4j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Writes meta.json files in the seams.md schema (and broken ones) for summary tests and the benchmark. */
public final class SyntheticMeta {
    private SyntheticMeta() {}

    /**
     * A complete meta.json. {@code tokensIn < 0} writes unmeasured tokens; {@code costUsd < 0}
     * writes {@code cost: null}.
     */
    public static String meta(String harness, String model, String outcome, long durationMs, long files, long ins, long del,
            long tokensIn, long tokensOut, double costUsd, String verdict, String branch) {
        String tokens = tokensIn < 0
                ? "{\"input\":null,\"output\":null,\"cache_read\":null,\"cache_write\":null,\"source\":null}"
                : "{\"input\":" + tokensIn + ",\"output\":" + tokensOut + ",\"cache_read\":0,\"cache_write\":null,\"source\":\"adapter\"}";
        String cost = costUsd < 0 ? "null"
                : String.format(Locale.ROOT, "{\"usd\":%.6f,\"source\":\"cli-estimate\",\"note\":null}", costUsd);
        String br = branch == null ? "null" : "{\"pushed\":true,\"name\":\"" + branch + "\",\"error\":null}";
        return "{\"schema_version\":1,\"run_id\":\"r-" + harness + "-" + model + "\",\"harness\":\"" + harness
                + "\",\"provider\":\"scripted\",\"model\":\"" + model + "\",\"resolved_model\":\"" + model
                + "\",\"task\":\"hello\",\"baseline\":{\"repo\":\"/tmp/repo\",\"ref\":\"main\",\"base_commit\":\"abc123\"},"
                + "\"head_after\":\"def456\",\"outcome\":\"" + outcome + "\",\"reason\":"
                + (outcome.equals("completed") ? "null" : "\"exit 1, \\\"quoted\\\"\"")
                + ",\"stage\":\"run\",\"exit_code\":0,\"termination\":{\"kind\":\"exited\",\"reason\":null},"
                + "\"started_at\":\"2026-11-29T10:00:00Z\",\"finished_at\":\"2026-11-29T10:01:00Z\",\"duration_ms\":" + durationMs
                + ",\"changes\":{\"files_changed\":" + files + ",\"insertions\":" + ins + ",\"deletions\":" + del
                + ",\"files\":[\"hello.txt\"]},\"tokens\":" + tokens + ",\"cost\":" + cost
                + ",\"served_model\":{\"requested\":\"" + model + "\",\"answered\":[\"" + model + "\"],\"verdict\":\"" + verdict
                + "\"},\"login\":null,\"branch\":" + br + ",\"summary\":\"Done.\"}";
    }

    /** Writes {@code json} as the meta.json of run {@code run-1} of combo {@code dir} of task {@code hello}. */
    public static void write(Path results, String dir, String json) throws IOException {
        Path d = Files.createDirectories(results.resolve(runDir(dir)));
        Files.writeString(d.resolve("meta.json"), json, StandardCharsets.UTF_8);
    }

    /** Where {@link #write} puts a combo's run, below the results dir. */
    public static String runDir(String combo) {
        return "hello/" + combo + "/run-1";
    }

    /** {@code n} results, every 50th broken in one of three ways (missing, not JSON, partial). */
    public static int writeMany(Path results, int n) throws IOException {
        int broken = 0;
        for (int i = 0; i < n; i++) {
            String dir = String.format(Locale.ROOT, "h%d__model-%05d", i % 3, i);
            if (i % 50 == 7) {
                broken++;
                switch (i % 3) {
                    case 0 -> Files.createDirectories(results.resolve(runDir(dir)));
                    case 1 -> write(results, dir, "{\"schema_version\":1,\"harness\":");
                    default -> write(results, dir, "{\"schema_version\":1,\"harness\":\"h\"}");
                }
                continue;
            }
            write(results, dir, meta("h" + i % 3, "model-" + i, i % 10 == 0 ? "error" : "completed", 1000 + i, 1 + i % 4,
                    i % 40, i % 7, i % 4 == 0 ? -1 : 1000 + i, 200 + i, i % 5 == 0 ? -1 : 0.001 * (i % 13), "match",
                    i % 2 == 0 ? "bench/h" + i : null));
        }
        return broken;
    }
}
