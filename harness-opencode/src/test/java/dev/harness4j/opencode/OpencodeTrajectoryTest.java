package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TrajectoryStep;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** opencode's JSON events, as a real run printed them, read as trajectory steps. */
class OpencodeTrajectoryTest {
    @TempDir Path tmp;

    private List<TrajectoryStep> steps(String resource) throws Exception {
        Path out = tmp.resolve("stdout.log");
        try (InputStream in = getClass().getResourceAsStream("/captured/" + resource + ".jsonl")) {
            Files.write(out, in.readAllBytes());
        }
        ResolvedProvider p = new ResolvedProvider("s", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.API_KEY, "m");
        HarnessContext ctx = HarnessContext.builder().runId("r").prompt("p").provider(p).workspace(tmp)
                .scratchDir(tmp).executable("opencode").build();
        Execution ex = new Execution(ctx, Invocation.builder("opencode").workingDir(tmp).build(), 0,
                Termination.exited(), out, Files.writeString(tmp.resolve("err"), ""), GitChanges.none("a"),
                Duration.ofSeconds(1));
        try (Stream<TrajectoryStep> s = new OpencodeHarness().trajectory(ex).orElseThrow()) {
            return s.toList();
        }
    }

    @Test
    void aShellRunIsAStepWithTheCallAndItsOutputThenTheAnswerWithEachStepsTokensAndCost() throws Exception {
        List<TrajectoryStep> steps = steps("shell");

        assertThat(steps).hasSize(2);
        TrajectoryStep shell = steps.get(0);
        assertThat(shell.toolCalls()).hasSize(1);
        assertThat(shell.toolCalls().get(0).name()).isEqualTo("bash");
        assertThat(shell.toolCalls().get(0).id()).isEqualTo("call_scripted_9");
        assertThat(shell.toolCalls().get(0).arguments()).contains("shelled");
        assertThat(shell.results().get(0).content()).isEqualTo("(no output)");
        assertThat(shell.usage().input()).isEqualTo(1000);
        assertThat(shell.usage().output()).isEqualTo(100);
        assertThat(shell.costUsd()).isEqualByComparingTo("0.0045");
        assertThat(shell.timestamp()).isNotNull();
        assertThat(steps.get(1).message()).isEqualTo("Ran it.");
        assertThat(steps.get(1).usage().input()).isEqualTo(2000);
    }
}
