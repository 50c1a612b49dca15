package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's job: {@code harness4j job run examples/jobs/plan.json} with claude-code against
 * the scripted model server (provider {@code scripted} in the state dir's providers.json).
 */
@RealCli
class JobsExampleTest {
    /** The checkout's root (the surefire working directory is harness-cli/). */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path PLAN = ROOT.resolve("examples/jobs/plan.json");

    @TempDir Path tmp;

    @Test
    void theReadmeRunsThePlanFile() throws Exception {
        assertThat(PLAN).exists();
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains("harness4j job run examples/jobs/plan.json");
    }

    @Test
    void theTwoPhasePlanRunsOnAScriptedProviderAndLeavesTheCheckoutAlone() throws Exception {
        assumeTrue(Files.exists(ROOT.resolve(".git")), "the example's baseline is this checkout, and " + ROOT
                + " is not a git checkout");
        Clis.require(HarnessRegistry.fromServices().require("claude-code"));
        Path state = tmp.resolve("state");
        StringWriter out = new StringWriter();
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            // one script, played across both phases: design's two turns, then build's
            server.script("scripted-a", Scenario.builder()
                    .writeFile("greeting/PLAN.md", "# Plan\n\nA script greeting/hello.sh that echoes a greeting.\n")
                    .say("Wrote greeting/PLAN.md.")
                    .writeFile("greeting/hello.sh", "#!/bin/sh\necho 'Hello from the job!'\n")
                    .say("Implemented the plan in greeting/hello.sh.")
                    .build());
            ProvidersFile.write(ProvidersFile.in(state), List.of(ProviderConfig.scripted(server.baseUrl(), "scripted-a")));
            int code = Harness4j.run(new PrintWriter(out, true), new PrintWriter(out, true), "job", "run", PLAN.toString(),
                    "--state-dir", state.toString());
            assertThat(code).as(out.toString()).isZero();
        }
        assertThat(out.toString()).containsPattern("job \\S+: completed").containsPattern("design\\s+completed")
                .containsPattern("build\\s+completed");
        Path[] repos;
        try (var jobs = Files.list(state.resolve("jobs"))) {
            repos = jobs.map(j -> j.resolve("repo")).filter(Files::isDirectory).toArray(Path[]::new);
        }
        assertThat(repos).hasSize(1);
        String branch = git(repos[0], "for-each-ref", "--format=%(refname:short)", "refs/heads/harness4j/job/").strip();
        assertThat(git(repos[0], "show", branch + ":greeting/hello.sh")).contains("Hello from the job!");
        assertThat(git(repos[0], "show", branch + ":greeting/PLAN.md")).contains("# Plan");
        assertThat(ROOT.resolve("greeting")).as("the baseline checkout is never changed").doesNotExist();
    }

    private static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }
}
