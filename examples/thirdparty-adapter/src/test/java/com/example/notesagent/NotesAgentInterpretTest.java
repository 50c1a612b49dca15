package com.example.notesagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.testkit.contract.HarnessChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notes agent reads a failure's wording with {@code Outcomes.fromText}; only harness-testkit and harness-api. */
class NotesAgentInterpretTest {
    @TempDir Path dir;

    private HarnessResult interpret(int exit, String stderr) throws Exception {
        NotesAgentHarness h = new NotesAgentHarness();
        HarnessContext ctx = HarnessChecks.context(dir, dir, "sh");
        Files.writeString(dir.resolve("err"), stderr);
        Execution ex = Execution.exited(ctx, h.prepare(ctx), exit, dir.resolve("out"), dir.resolve("err"))
                .withTimes(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:05Z"));
        return h.interpret(ex);
    }

    @Test
    void aFailuresWordingRefinesTheOutcomeAndARateLimitGetsItsRetryTime() throws Exception {
        HarnessResult limited = interpret(1, "error: 429 Too Many Requests, try again in 20s\n");
        assertThat(limited.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(limited.retryAt()).isEqualTo(Instant.parse("2026-01-01T00:00:25Z"));
        assertThat(interpret(1, "401 Unauthorized: invalid api key\n").outcome()).isEqualTo(Outcome.AUTH);
        assertThat(interpret(1, "disk full\n").outcome()).isEqualTo(Outcome.ERROR);
        assertThat(interpret(0, "").outcome()).as("exit 0, nothing changed").isEqualTo(Outcome.NO_OP);
    }
}
