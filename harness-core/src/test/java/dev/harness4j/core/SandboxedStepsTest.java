package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.Login;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runner's other processes are confined like the harness: the login probe (it sees what the
 * run will see, so it reports the login the run can use) and an {@link AfterHarness} step's
 * commands (a verifier). Files under {@code target/}, not {@code /tmp} (private inside).
 */
class SandboxedStepsTest {
    private Path tmp;
    private Path base;
    private Path fakeHome;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        tmp = Files.createTempDirectory(target, "sandboxed-steps-test");
        base = GitFixture.repo(tmp.resolve("base"));
        fakeHome = tmp.resolve("home");
        Files.createDirectories(fakeHome.resolve(".ssh"));
        Files.writeString(fakeHome.resolve(".ssh/id_test"), "PRIVATE-KEY-MATERIAL");
    }

    @AfterEach
    void tearDown() throws IOException {
        if (tmp != null) {
            try (Stream<Path> s = Files.walk(tmp)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A runner of {@link LoginProbeTest.ProbingHarness} (a shell harness with a shell login probe), HOME the fake one. */
    private HarnessRunner probingRunner(Sandbox sandbox) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", fakeHome.toString());
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).environment(env).sandbox(sandbox)
                .registry(HarnessRegistry.builder().add(new LoginProbeTest.ProbingHarness()).build())
                .providers(ShellHarness.provider()).build();
    }

    @Test
    void theLoginProbeIsConfinedLikeTheRunAndSeesTheRunsHomeNotTheRealOne() throws Exception {
        // "logged in" only if the probe can read the planted key: a real HOME's login would leak the same way
        String probe = "if cat " + fakeHome.resolve(".ssh/id_test") + " >/dev/null 2>&1; "
                + "then echo '{\"loggedIn\":true,\"authMethod\":\"real-home\"}'; "
                + "else echo \"{\\\"loggedIn\\\":false,\\\"authMethod\\\":\\\"home=$HOME\\\"}\"; fi; "
                + "echo x > /tmp/probe-was-here";
        Path trace = Path.of("/tmp/probe-was-here");
        Files.deleteIfExists(trace);
        for (Sandbox mode : List.of(Sandbox.REQUIRED, Sandbox.OFF)) {
            try (HarnessRunner runner = probingRunner(mode)) {
                RunRecord r = runner.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                        .option("script", "echo w > w.txt").option("probe", probe).build());
                assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
                if (mode == Sandbox.REQUIRED) {
                    assertThat(r.login().status()).isEqualTo(Login.Status.NOT_LOGGED_IN);
                    assertThat(r.login().authMethod()).as("the probe's HOME is the run's own")
                            .startsWith("home=").endsWith("/home").doesNotContain(fakeHome.toString());
                    assertThat(meta(r)).contains("\"mode\" : \"bubblewrap\"");
                    assertThat(trace).as("the confined probe's /tmp is its own").doesNotExist();
                } else {
                    assertThat(r.login().status()).as("unconfined, the same probe reads the key")
                            .isEqualTo(Login.Status.LOGGED_IN);
                }
            }
        }
        assertThat(trace).as("the unconfined probe wrote it").exists();
        Files.deleteIfExists(trace);
    }

    @Test
    void afterHarnessCommandsAreConfinedWithTheWorkspaceAndTheirScratchDirWritableAndNoNetwork() throws Exception {
        String marker = "h4j-after-" + System.nanoTime();
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HarnessRunner runner = probingRunner(Sandbox.REQUIRED)) {
            AtomicReference<String> output = new AtomicReference<>();
            AtomicReference<String> reward = new AtomicReference<>();
            RunRecord r = runner.run(RunSpec.builder("probe-test", "local").model("m1").prompt("p").baseline(base)
                    .option("script", "echo agent > agent.txt").build(), "sandbox-after-" + System.nanoTime(),
                    HarnessListener.NONE, ctx -> {
                        Path log = ctx.scratchDir().resolve("check.log");
                        String script = "cat agent.txt\n"
                                + attempt("read-ssh", "cat " + fakeHome.resolve(".ssh/id_test") + " 2>&1")
                                + attempt("write-baseline", "echo x > " + base.resolve("after.txt") + " 2>&1")
                                + attempt("write-real-home", "echo x > " + fakeHome.resolve(marker) + " 2>&1")
                                + attempt("connect-host-port", "curl -sS --max-time 5 http://127.0.0.1:"
                                        + other.getLocalPort() + "/ 2>&1")
                                + "echo checked > checked.txt && echo WROTE-workspace\n"
                                + "echo 0.5 > \"$REWARD\" && echo WROTE-scratch\n";
                        ctx.run(List.of("sh", "-c", script), Map.of("REWARD", ctx.scratchDir().resolve("reward.txt").toString()),
                                Duration.ofSeconds(60), log);
                        try {
                            output.set(Files.readString(log));
                            reward.set(Files.readString(ctx.scratchDir().resolve("reward.txt")).strip());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            String t = output.get();
            assertThat(t).as(t).contains("agent", "WROTE-workspace", "WROTE-scratch", "BLOCKED read-ssh",
                    "BLOCKED write-baseline", "BLOCKED write-real-home", "BLOCKED connect-host-port")
                    .doesNotContain("LEAK", "PRIVATE-KEY-MATERIAL");
            assertThat(reward.get()).isEqualTo("0.5");
            assertThat(base.resolve("after.txt")).doesNotExist();
            assertThat(fakeHome.resolve(marker)).doesNotExist();
            assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        }
    }

    /** The run's meta.json; shared with harness-meter's SandboxTest. */
    static String meta(RunRecord r) throws IOException {
        return Files.readString(r.resultDir().resolve("meta.json"), StandardCharsets.UTF_8);
    }

    /** {@code <what> && echo LEAK <name> || echo BLOCKED <name>}. */
    static String attempt(String name, String what) {
        return "if " + what + " ; then echo \"LEAK " + name + "\"; else echo \"BLOCKED " + name + "\"; fi\n";
    }
}
