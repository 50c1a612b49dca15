package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunTimelineTest {
    @TempDir Path dir;

    private static String status(String at, String status, String detail) {
        return "{\"run_id\":\"r1\",\"at\":\"2026-12-01T10:00:" + at + "Z\",\"type\":\"status\",\"status\":\"" + status
                + "\",\"detail\":" + (detail == null ? "null" : "\"" + detail + "\"") + "}\n";
    }

    private static String output(String at, String text) {
        return "{\"run_id\":\"r1\",\"at\":\"2026-12-01T10:00:" + at + "Z\",\"type\":\"output\",\"stream\":\"stdout\",\"text\":\""
                + text + "\",\"truncated\":false,\"activity\":true}\n";
    }

    private String render() throws Exception {
        StringBuilder sb = new StringBuilder();
        RunTimeline.append(sb, dir);
        return sb.toString();
    }

    @Test
    void showsThePhasesWithTheirDurationsTheGuardStopTheRequestsAndTheVerifier() throws Exception {
        Files.writeString(dir.resolve("events.jsonl"), status("00.000", "preparing", null) + status("00.500", "running", null)
                + output("01.000", "working \\\"type\\\":\\\"output\\\", on it") + output("02.000", "<b>still</b>")
                + status("10.500", "capturing", null) + status("12.000", "capturing", "writing results") + "not json\n");
        Files.writeString(dir.resolve("requests.jsonl"), "{\"at\":\"2026-12-01T10:00:01.000Z\",\"method\":\"POST\","
                + "\"path\":\"/v1/messages\",\"status\":200,\"latency_ms\":800,\"requested_model\":\"m-a\",\"answered_model\":\"m-b\","
                + "\"usage\":{\"input\":1200,\"output\":40}}\n{\"at\":\"2026-12-01T10:00:03.000Z\",\"method\":\"POST\","
                + "\"path\":\"/v1/messages\",\"status\":429,\"latency_ms\":5,\"requested_model\":\"m-a\",\"usage\":{},"
                + "\"error_type\":\"rate_limit_error\",\"retry_at\":\"2026-12-01T10:01:00Z\"}\n");
        Files.writeString(dir.resolve("meta.json"), "{\"finished_at\":\"2026-12-01T10:00:12.300Z\","
                + "\"termination\":{\"kind\":\"inactivity_timeout\",\"reason\":\"no output for 8 s\"},"
                + "\"verify\":{\"status\":\"failed\",\"duration_ms\":1200,\"reason\":\"exit 1\"}}");

        String html = render();

        assertThat(html).contains("id=\"events\"", "<td>preparing</td><td class=\"num\">500 ms</td>",
                "running · 2 output lines</td><td class=\"num\">10.0 s</td>", "<td>writing results</td><td class=\"num\">300 ms</td>",
                "harness stopped: inactivity-timeout (no output for 8 s)",
                "POST /v1/messages → 200 · m-a (answered by m-b) · tokens in 1200 / out 40",
                "→ 429 · m-a · error type rate_limit_error · retry at 2026-12-01T10:01:00Z", "verifier: failed (exit 1)",
                "1 lines of events.jsonl could not be read", "12.3 s in all")
                .doesNotContain("<b>still</b>");
        assertThat(html.indexOf("+10.500 s</td><td>guard")).as("the guard stop is placed where capturing starts").isPositive();
        assertThat(html.indexOf("+10.800 s</td><td>verify")).as("the verifier ends where the results are written").isPositive();
        assertThat(html.indexOf("<td>preparing")).isLessThan(html.indexOf("<td>request</td>"));
        assertThat(html.indexOf("<td>request</td>")).isLessThan(html.indexOf("<td>request failed</td>"));
    }

    @Test
    void aRunWithoutEventsSaysSo() throws Exception {
        assertThat(render()).contains("id=\"events\"", "no timed events recorded").doesNotContain("<table");
    }
}
