package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.GitFixture;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j job ...} with harness-jobs' test harness {@code job-test} (a shell script per phase). */
class JobCommandTest {
    @TempDir
    Path tmp;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String state;

    @BeforeEach
    void setUp() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // the test harness never calls its provider
        }
        ProvidersFile.write(ProvidersFile.in(tmp.resolve("state")),
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:" + port), "scripted-a")));
        state = tmp.resolve("state").toString();
        GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
    }

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private Path plan(String json) throws Exception {
        return Files.writeString(tmp.resolve("plan.json"), json);
    }

    @Test
    void runStatusAndAFinishedJobThatCannotBeResumed() throws Exception {
        // the provider listens nowhere (the test harness never calls it): no health check
        Path plan = plan("{\"id\": \"cli-job\", \"baseline\": \"repo\", \"harness\": \"job-test\", \"health_check\": false,"
                + " \"provider\": \"scripted\", \"model\": \"scripted-a\", \"phases\": ["
                + "{\"id\": \"one\", \"prompt\": \"first\", \"options\": {\"script\":"
                + " \"echo 1 > one && git add one && git commit -qm one && echo 'NOTES read one'\"}},"
                + "{\"id\": \"two\", \"prompt\": \"second\", \"options\": {\"script\": \"echo 2 > two\"}}]}");

        assertThat(run("job", "run", plan.toString(), "--state-dir", state)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("job cli-job: completed", "one", "two", "phase-state");

        assertThat(run("job", "status", "cli-job", "--state-dir", state)).isZero();
        assertThat(run("job", "status", "--state-dir", state)).isZero();
        assertThat(out.toString()).containsPattern("cli-job\\s+completed");

        assertThat(run("job", "resume", "cli-job", "--state-dir", state)).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("completed; there is nothing to resume");
        assertThat(run("job", "cancel", "cli-job", "--state-dir", state)).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(run("job", "resume", "nope", "--state-dir", state)).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("no job nope", "known jobs: [cli-job]");
    }

    @Test
    void aPlanWithUnknownFieldsIsRefusedWithExitTwoAndNothingWritten() throws Exception {
        Path plan = plan("{\"baseline\": \"repo\", \"harness\": \"job-test\", \"provider\": \"scripted\","
                + " \"retries\": 3, \"phases\": [{\"id\": \"a\", \"prompt\": \"x\", \"depends_on\": [\"b\"]},"
                + " {\"id\": \"b\", \"prompt\": \"y\", \"depends_on\": [\"a\"], \"colour\": \"red\"}]}");
        assertThat(run("job", "run", plan.toString(), "--state-dir", state)).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("unknown field \"retries\"", "unknown field \"colour\"", "cycle");
        assertThat(tmp.resolve("state/jobs")).doesNotExist();
        assertThat(run("job", "--help")).isZero();
        for (String sub : List.of("run", "status", "resume", "pause", "cancel")) {
            assertThat(run("job", sub, "--help")).isZero();
        }
    }
}
