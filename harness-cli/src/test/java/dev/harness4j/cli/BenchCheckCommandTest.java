package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j bench check}: real nop and oracle runs, real verifiers, no provider configured anywhere. */
class BenchCheckCommandTest {
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static void task(Path suite, String name, String verify, String solution) throws Exception {
        Path d = Files.createDirectories(suite.resolve(name));
        Files.writeString(d.resolve("task.json"), "{\"instruction\": \"Write 42 to answer.txt\", \"setup\": \"echo seed > seed.txt\","
                + " \"verify\": {\"command\": \"" + verify + "\"}"
                + (solution == null ? "" : ", \"solution\": {\"command\": \"" + solution + "\"}") + "}");
    }

    @Test
    void aBrokenTaskIsNamedAndExitsOne() throws Exception {
        Path suite = tmp.resolve("mixed");
        task(suite, "sound", "grep -qx 42 answer.txt", "echo 42 > answer.txt");
        task(suite, "lax", "true", "echo 42 > answer.txt");
        task(suite, "unsolved", "grep -qx 42 answer.txt", null);

        int code = run("bench", "check", "--suite", suite.toString(), "--state-dir", tmp.resolve("state").toString());

        assertThat(code).as(out + "\n" + err).isEqualTo(Harness4j.FAILED);
        assertThat(out.toString()).contains("sandbox: ", "lax · nop: passed", "sound · oracle #2: passed",
                "task lax: verifier accepts the untouched repository", "task unsolved: no reference solution (warning",
                "suite check FAILED: 1 of 3 tasks broken: lax");
        assertThat(tmp.resolve("state/config/providers.json")).doesNotExist();
        Path report = tmp.resolve("state/reports/mixed-check/index.html");
        assertThat(out.toString()).contains("report: " + report);
        assertThat(report).content().contains("<h2>Suite check</h2>",
                "<li class=\"failed\">task lax: verifier accepts the untouched repository",
                "<li class=\"warning\">task unsolved: no reference solution");
    }

    @Test
    void aSoundSuitePassesAndAnUnreadableOneIsBadInput() throws Exception {
        Path suite = tmp.resolve("sound");
        task(suite, "answer", "grep -qx 42 answer.txt", "echo 42 > answer.txt");

        assertThat(run("bench", "check", "--suite", suite.toString(), "--state-dir", tmp.resolve("state").toString()))
                .as(out + "\n" + err).isEqualTo(Harness4j.OK);
        assertThat(out.toString()).contains("suite check passed");

        assertThat(run("bench", "check", "--suite", tmp.resolve("nowhere").toString(), "--state-dir",
                tmp.resolve("state").toString())).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("cannot be read");
    }

    @Test
    void aBenchRunOfReferenceHarnessesNeedsNoProviderAndKeepsThemOffTheLeaderboard() throws Exception {
        Path suite = tmp.resolve("refs");
        task(suite, "answer", "grep -qx 42 answer.txt", "echo 42 > answer.txt");
        String stateDir = tmp.resolve("state").toString();

        int code = run("bench", "run", "--suite", suite.toString(), "--harness", "nop,oracle", "--state-dir", stateDir);

        assertThat(code).as(out + "\n" + err).isEqualTo(Harness4j.OK);
        assertThat(out.toString()).contains("references (not ranked", "nop: 0/1 passed", "oracle: 1/1 passed");

        out.getBuffer().setLength(0);
        assertThat(run("bench", "run", "--suite", suite.toString(), "--harness", "claude-code,nop", "--state-dir", stateDir))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("no provider", "only [nop] need none");
    }
}
