package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.aider.AiderHarness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.codex.CodexHarness;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.gemini.GeminiHarness;
import dev.harness4j.miniswe.MiniSweAgentHarness;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.qwen.QwenHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each of the seven bundled CLIs, through the meter (the default) against the scripted server,
 * never holds the provider's real key: while the run is live a watcher reads {@code
 * /proc/<pid>/environ} of every process carrying the run marker (the CLI and whatever it
 * started) and every file of the state dir (the workspace, the scratch dir with the CLI's config
 * files), and after it every file of the state dir again. The run still
 * completes, metered, and {@code meta.json} says the meter held the credential.
 */
@RealCli
class NoRealKeyRealCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(3));
    private static final byte[] KEY = ScriptedProvider.KEY.getBytes(StandardCharsets.UTF_8);

    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        for (var h : new dev.harness4j.api.Harness[] {new ClaudeCodeHarness(), new OpencodeHarness(),
                new AiderHarness(), new CodexHarness(), new GeminiHarness(), new QwenHarness(),
                new MiniSweAgentHarness()}) {
            Clis.require(h);
        }
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** Reads the environment of every process with a run marker, until stopped. */
    private static final class EnvironWatcher implements AutoCloseable {
        final Set<Long> seen = ConcurrentHashMap.newKeySet();
        final Map<Long, String> holdingKey = new ConcurrentHashMap<>();
        final Set<Path> keyFiles = ConcurrentHashMap.newKeySet();
        private final Path stateDir;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread = new Thread(this::watch, "environ-watcher");
        private final byte[] marker = (RunMarker.ENV + "=").getBytes(StandardCharsets.UTF_8);
        private final byte[] ours; // this test's state dir (the run's HOME is under it): not another build's run

        EnvironWatcher(Path stateDir) {
            this.stateDir = stateDir;
            this.ours = stateDir.toString().getBytes(StandardCharsets.UTF_8);
            thread.setDaemon(true);
            thread.start();
        }

        private void watch() {
            for (int round = 0; !stop.get(); round++) {
                if (round % 20 == 0) { // the scratch dir's config files exist only while the run is live
                    try {
                        keyFiles.addAll(filesHoldingKey(stateDir));
                    } catch (IOException | java.io.UncheckedIOException e) {
                        // a file went away while walked: the next round sees the rest
                    }
                }
                try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                    for (Path p : procs.toList()) {
                        String name = p.getFileName().toString();
                        if (!name.chars().allMatch(Character::isDigit)) {
                            continue;
                        }
                        byte[] env;
                        try {
                            env = Files.readAllBytes(p.resolve("environ"));
                        } catch (IOException | SecurityException e) {
                            continue; // exited meanwhile
                        }
                        if (indexOf(env, marker) >= 0 && indexOf(env, ours) >= 0) {
                            long pid = Long.parseLong(name);
                            seen.add(pid);
                            if (indexOf(env, KEY) >= 0) {
                                holdingKey.put(pid, variablesHoldingKey(env) + " in " + cmdline(p));
                            }
                        }
                    }
                } catch (IOException e) {
                    // /proc unreadable for a moment: try again
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** The names of the variables whose value holds the key. */
        private static java.util.List<String> variablesHoldingKey(byte[] environ) {
            java.util.List<String> names = new java.util.ArrayList<>();
            for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
                if (entry.contains(ScriptedProvider.KEY)) {
                    int eq = entry.indexOf('=');
                    names.add(eq < 0 ? "(no name)" : entry.substring(0, eq));
                }
            }
            return names;
        }

        private static String cmdline(Path proc) {
            try {
                return new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
            } catch (IOException e) {
                return "?";
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(5_000);
        }
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Files under {@code dir} whose bytes hold the real key. */
    private static java.util.List<Path> filesHoldingKey(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return java.util.List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> {
                try {
                    return indexOf(Files.readAllBytes(f), KEY) >= 0;
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ClaudeCodeHarness.ID, OpencodeHarness.ID, AiderHarness.ID, CodexHarness.ID,
            GeminiHarness.ID, QwenHarness.ID, MiniSweAgentHarness.ID})
    void theCliCompletesMeteredAndNeitherItsProcessesNorAnyFileOfTheRunHoldTheRealKey(String harness)
            throws Exception {
        String model = "no-real-key-" + harness;
        server.script(model, harness.equals(MiniSweAgentHarness.ID)
                ? Scenario.builder() // mini-swe-agent acts only through bash, and ends with its submit line
                        .shell("printf 'hello\\n' > hello.txt").usage(1234, 56, 0, 0)
                        .shell("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT").usage(1300, 25, 0, 0).build()
                : Scenario.builder()
                        .writeFile("hello.txt", "hello\n").usage(1234, 56, 0, 0)
                        .say("Wrote hello.txt.").usage(1300, 25, 0, 0).build());
        Path baseline = BenchMain.sampleRepo(tmp.resolve("baseline"));
        Path state = tmp.resolve("state");
        RunRecord r;
        EnvironWatcher watcher = new EnvironWatcher(state);
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().loadServices().build())
                .providers(new ScriptedProvider(server)).build()) {
            RunSpec.Builder spec = RunSpec.builder(harness, ScriptedProvider.NAME).model(model)
                    .prompt("Do the scripted task.").baseline(baseline).limits(LIMITS)
                    .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0");
            if (harness.equals(AiderHarness.ID)) {
                spec.option("stream", "false"); // unstreamed, aider's requests report their usage
            }
            r = runner.run(spec.build());
        } finally {
            watcher.close();
        }

        JsonNode meta = JSON.readTree(Files.readString(r.metaFile()));
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("completed");
        assertThat(meta.path("tokens").path("source").asText()).isEqualTo("metered");
        assertThat(meta.path("credential").path("held_by").asText()).as(meta.path("credential").toString())
                .isEqualTo("meter");
        assertThat(RunMarker.find(r.runId())).as("processes left with run %s's marker", r.runId()).isEmpty();
        assertThat(watcher.seen).as("the watcher read the environment of the run's processes while they ran")
                .isNotEmpty();
        assertThat(watcher.holdingKey).as("processes whose environment held the real key (of %d seen)",
                watcher.seen.size()).isEmpty();
        assertThat(watcher.keyFiles).as("files of the state dir (workspace, scratch dir) holding the real key "
                + "while the run was live").isEmpty();
        assertThat(filesHoldingKey(state)).as("files of the state dir holding the real key after the run").isEmpty();
    }
}
