package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's trajectory as the report's readable step list. */
class TrajectoryHtmlTest {
    @TempDir Path tmp;

    private String render(String json) throws Exception {
        if (json != null) {
            Files.writeString(tmp.resolve("trajectory.json"), json);
        }
        StringBuilder h = new StringBuilder();
        TrajectoryHtml.append(h, tmp);
        return h.toString();
    }

    @Test
    void showsModelCallsToolCallsWithArgumentsAndFoldsObservations() throws Exception {
        String html = render("""
                {"schema_version":"ATIF-v1.7","agent":{"name":"a","version":"1"},"steps":[
                 {"step_id":1,"source":"user","message":"Fix <b>it</b>"},
                 {"step_id":2,"source":"agent","model_name":"m-1","message":"Look.",
                  "tool_calls":[{"tool_call_id":"t1","function_name":"Bash","arguments":{"command":"ls"}}],
                  "observation":{"results":[{"source_call_id":"t1","content":"README.md"}]},
                  "metrics":{"prompt_tokens":140,"completion_tokens":10,"cost_usd":0.0012}}],
                 "extra":{"harness4j":{"trajectory_source":"wire-bodies"}}}
                """);

        assertThat(html).contains("2 steps, from wire-bodies")
                .contains("Fix &lt;b&gt;it&lt;/b&gt;").doesNotContain("<b>it")
                .contains("model call</span> <span class=\"meta\">m-1, 140 in / 10 out, $0.0012")
                .contains("<code class=\"tool\">Bash</code> <code>{&quot;command&quot;:&quot;ls&quot;}</code>")
                .contains("<details><summary>result of t1 (9 chars)</summary><pre>README.md</pre></details>");
    }

    @Test
    void showsAtMostTheCapOfStepsAndSaysHowManyMore() throws Exception {
        StringBuilder steps = new StringBuilder();
        int n = TrajectoryHtml.MAX_STEPS + 5;
        for (int i = 1; i <= n; i++) {
            steps.append(i > 1 ? "," : "").append("{\"step_id\":").append(i).append(",\"source\":\"agent\",\"message\":\"s")
                    .append(i).append("\"}");
        }
        String html = render("{\"steps\":[" + steps + "]}");

        assertThat(html).contains(n + " steps").contains("5 more steps not shown")
                .contains("<pre>s" + TrajectoryHtml.MAX_STEPS + "</pre>").doesNotContain("<pre>s" + n + "</pre>");
    }

    @Test
    void aMissingOrBrokenFileIsALineNotAnException() throws Exception {
        assertThat(render(null)).contains("no trajectory.json");
        assertThat(render("{\"steps\":[{")).contains("trajectory.json unreadable");
    }
}
