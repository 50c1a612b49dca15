package dev.harness4j.examples;

import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The smallest embedding: hand one task to a coding agent and get a diff back. Runs against
 * the embedded scripted model server, so it needs no API key.
 *
 * <pre>
 *   java -cp ... dev.harness4j.examples.EmbeddingExample [harness-id]   (default claude-code)
 * </pre>
 */
public final class EmbeddingExample {
    private EmbeddingExample() {}

    public static void main(String[] args) throws Exception {
        String harness = args.length > 0 ? args[0] : "claude-code";
        Path work = Files.createTempDirectory("harness4j-embedding");
        RunRecord record = runOnce(harness, work.resolve("state"), sampleRepo(work.resolve("repo")));
        System.out.println(record.result().outcome().wireName() + ": " + record.changes().files());
        System.out.println(Files.readString(record.resultDir().resolve("diff.patch")));
    }

    /** One run of {@code harness} on {@code repo}; the result lands under {@code stateDir/results}. */
    public static RunRecord runOnce(String harness, Path stateDir, Path repo) {
        // README: embedding
        try (ScriptedModelServer server = ScriptedModelServer.start();
                HarnessRunner runner = HarnessRunner.builder()
                        .stateDir(stateDir)
                        .providers(Providers.builder().add(ProviderConfig.scripted(server.baseUrl())).build())
                        .build()) {
            server.script("scripted-a", Scenario.builder()
                    .writeFile("hello.txt", "hello from the agent\n").usage(120, 30, 0, 0)
                    .say("Created hello.txt.").usage(40, 10, 0, 0)
                    .build());

            RunRecord record = runner.run(RunSpec.builder(harness, ProviderConfig.SCRIPTED)
                    .model("scripted-a")
                    .prompt("Create hello.txt with a greeting.")
                    .baseline(repo)
                    .build());

            // record.result(): outcome, tokens, cost, served model; record.resultDir(): meta.json, diff.patch, ...
            return record;
        }
        // README: end
    }

    /** A fresh git repository with one commit. */
    public static Path sampleRepo(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("README.md"), "# sample\n");
        git(dir, "init", "-q", "-b", "main");
        git(dir, "add", "-A");
        git(dir, "-c", "user.name=harness4j", "-c", "user.email=harness4j@example.invalid",
                "commit", "-q", "-m", "initial");
        return dir;
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("git " + String.join(" ", args) + " failed in " + dir + ": " + out);
        }
    }
}
