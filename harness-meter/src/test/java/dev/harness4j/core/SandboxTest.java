package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.process.Sandbox;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real bubblewrap sandboxes around a real shell harness ({@link MeteredRunTest.CurlHarness}): a
 * hostile script tries to get out and every attempt fails visibly; the meter is reached through
 * the relay; stops still reach the whole tree; AUTO falls back and REQUIRED refuses when bwrap
 * cannot run. The test's files live under {@code target/}, not {@code /tmp} (private inside).
 */
class SandboxTest {
    private static final String KEY = "sk-sandbox-test-0042";
    private static final String CHAT_OK = "{\"model\":\"m-2025\",\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":10}}";

    private Path tmp;
    private Path base;
    private Path fakeHome;
    private Upstream upstream;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        tmp = Files.createTempDirectory(target, "sandbox-test");
        base = GitFixture.repo(tmp.resolve("base"));
        fakeHome = tmp.resolve("home");
        Files.createDirectories(fakeHome.resolve(".ssh"));
        Files.writeString(fakeHome.resolve(".ssh/id_test"), "PRIVATE-KEY-MATERIAL");
        upstream = new Upstream();
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", CHAT_OK));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (upstream != null) {
            upstream.close();
        }
        if (tmp != null) {
            try (Stream<Path> s = Files.walk(tmp)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private HarnessRunner runner(Sandbox sandbox, Path bwrap) {
        return runner(sandbox, bwrap, SandboxNetwork.METER_ONLY);
    }

    private HarnessRunner runner(Sandbox sandbox, Path bwrap, SandboxNetwork network) {
        ProviderResolver p = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return Optional.of(new ResolvedProvider("up", EnumSet.of(ApiStyle.OPENAI), upstream.url(""),
                        Secret.of(KEY), AuthScheme.BEARER, model));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("up");
            }
        };
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", fakeHome.toString());
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).environment(env)
                .sandbox(sandbox).sandboxNetwork(network).bwrapExecutable(bwrap).termGrace(Duration.ofSeconds(2))
                .registry(HarnessRegistry.builder().add(new MeteredRunTest.CurlHarness()).build())
                .installations(Installations.defaults()).providers(p).build();
    }

    private RunRecord run(HarnessRunner runner, String script, Limits limits) {
        RunRecord r = runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + script)
                .baseline(base).limits(limits).build());
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    private static String transcript(RunRecord r) throws IOException {
        return Files.readString(r.resultDir().resolve("transcript.log"), StandardCharsets.UTF_8);
    }

    @Test
    void aHostileHarnessCannotReadWriteConnectResolveOrKillOutsideAndItsWorkspaceAndMeterStillWork() throws Exception {
        Path realHome = Path.of(System.getProperty("user.home"));
        String marker = "h4j-hostile-" + System.nanoTime();
        Path otherRun = tmp.resolve("state/runs/other-run");
        Files.createDirectories(otherRun);
        Process outside = new ProcessBuilder("sleep", "600").start();
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HarnessRunner runner = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP)) {
            String script = "echo start\n"
                    + SandboxedStepsTest.attempt("read-ssh", "cat " + fakeHome.resolve(".ssh/id_test") + " 2>&1")
                    + SandboxedStepsTest.attempt("read-ssh-home", "cat $HOME/.ssh/id_test 2>&1")
                    + SandboxedStepsTest.attempt("write-real-home", "echo x > " + realHome.resolve(marker) + " 2>&1")
                    + SandboxedStepsTest.attempt("write-fake-home", "echo x > " + fakeHome.resolve(marker) + " 2>&1")
                    + SandboxedStepsTest.attempt("write-tmp", "echo x > /tmp/" + marker + " && test -e /tmp/" + marker + " && false")
                    + SandboxedStepsTest.attempt("write-baseline", "echo x > " + base.resolve("hostile.txt") + " 2>&1")
                    + SandboxedStepsTest.attempt("read-io-dir", "ls $(dirname \"$PWD\")/io 2>&1")
                    + SandboxedStepsTest.attempt("write-other-run", "echo x > " + otherRun.resolve("hostile.txt") + " 2>&1")
                    + SandboxedStepsTest.attempt("connect-other-port", "curl -sS --max-time 5 http://127.0.0.1:" + other.getLocalPort() + "/ 2>&1")
                    + SandboxedStepsTest.attempt("resolve-name", "getent hosts example.com 2>&1")
                    + SandboxedStepsTest.attempt("connect-outside", "curl -sS --max-time 5 http://1.1.1.1/ 2>&1")
                    + SandboxedStepsTest.attempt("kill-outside", "kill -9 " + outside.pid() + " 2>&1")
                    + "echo inside > sandboxed.txt && echo WROTE-workspace\n"
                    + "echo home > $HOME/own.txt && echo WROTE-own-home\n"
                    + "code=$(curl -s -o /dev/null -w '%{http_code}' -H \"Authorization: Bearer $KEY\" "
                    + "-H 'content-type: application/json' -d '{\"model\":\"m\"}' \"$V1/chat/completions\")\n"
                    + "echo METER-$code\n"
                    + "echo end\n";
            RunRecord r = run(runner, script, Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)));
            String t = transcript(r);
            for (String name : List.of("read-ssh", "read-io-dir", "read-ssh-home", "write-real-home", "write-fake-home", "write-baseline",
                    "write-other-run", "connect-other-port", "resolve-name", "connect-outside", "kill-outside")) {
                assertThat(t).as(t).contains("BLOCKED " + name).doesNotContain("LEAK " + name);
            }
            assertThat(t).contains("start", "WROTE-workspace", "WROTE-own-home", "METER-200", "end")
                    .contains("Read-only file system").doesNotContain("PRIVATE-KEY-MATERIAL");
            assertThat(Files.exists(realHome.resolve(marker))).isFalse();
            assertThat(Files.exists(fakeHome.resolve(marker))).isFalse();
            assertThat(Files.exists(Path.of("/tmp", marker))).as("the sandbox's /tmp is its own").isFalse();
            assertThat(Files.exists(base.resolve("hostile.txt"))).isFalse();
            assertThat(Files.exists(otherRun.resolve("hostile.txt"))).isFalse();
            assertThat(outside.isAlive()).as("the process outside survived").isTrue();
            assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(r.changes().files()).contains("sandboxed.txt");
            assertThat(r.meter().requests()).isEqualTo(1);
            assertThat(r.result().tokens().input()).isEqualTo(1000L);
            assertThat(SandboxedStepsTest.meta(r)).contains("\"sandbox\"", "\"mode\" : \"bubblewrap\"", "\"network\" : \"meter-only\"");
        } finally {
            outside.destroyForcibly();
        }
    }

    @Test
    void theRelayServesTheHarnesssFirstInstantRequestAndCarriesLargeBodiesOnParallelConnections() throws Exception {
        int pad = 2_000_000;
        String big = "{\"model\":\"m-2025\",\"pad\":\"" + "p".repeat(pad)
                + "\",\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":10}}";
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", big));
        String curl = "curl -s -o /dev/null -H \"Authorization: Bearer $KEY\" -H 'content-type: application/json' ";
        try (HarnessRunner runner = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP)) {
            // the first command: nothing may have waited for the relay to come up
            String script = curl + "-w 'FIRST-%{http_code}\\n' -d '{\"model\":\"m\"}' \"$V1/chat/completions\"\n"
                    + "head -c 3000000 /dev/zero | tr '\\0' a > $HOME/big.txt\n"
                    + "for i in 1 2 3; do " + curl + "-w 'BIG-%{http_code}-%{size_download}-%{size_upload}\\n' "
                    + "--data-binary @$HOME/big.txt \"$V1/chat/completions\" & done; wait\n";
            RunRecord r = run(runner, script, Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)));
            String t = transcript(r);
            String expected = "BIG-200-" + big.length() + "-3000000";
            assertThat(t).as(t).contains("FIRST-200");
            assertThat(t.split(expected, -1)).as(t).hasSize(4);
            assertThat(r.meter().requests()).isEqualTo(4);
            assertThat(r.result().tokens().input()).isEqualTo(4000L);
            assertThat(SandboxedStepsTest.meta(r)).contains("\"network\" : \"meter-only\"");
        }
    }

    @Test
    void theMarkerScanFindsTheSandboxedTreeAndABailLeavesNoMarkerProcess() throws Exception {
        try (HarnessRunner runner = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP)) {
            String runId = "sandbox-bail-" + System.nanoTime();
            CompletableFuture<List<String>> seen = new CompletableFuture<>();
            Thread watcher = new Thread(() -> {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (System.nanoTime() < deadline) {
                    List<String> found = RunMarker.find(runId).stream().map(h -> h.info().command().orElse("?")).toList();
                    if (found.stream().anyMatch(c -> c.endsWith("sleep")) && found.stream().anyMatch(c -> c.endsWith("bwrap"))) {
                        seen.complete(found);
                        runner.bail(runId);
                        return;
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                seen.complete(List.of());
            });
            watcher.start();
            RunRecord r = runner.run(RunSpec.builder("curl-test", "up").model("m")
                    .prompt("SCRIPT:trap '' TERM; sleep 300 & sleep 301; wait").baseline(base)
                    .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))).build(), runId);
            watcher.join();
            List<String> commands = seen.get();
            assertThat(commands).as("bwrap and the script's processes carry the marker")
                    .anyMatch(c -> c.endsWith("bwrap")).anyMatch(c -> c.endsWith("sleep"));
            assertThat(r.result().outcome()).isEqualTo(Outcome.BAILED);
            assertThat(RunMarker.find(runId)).isEmpty();
            assertThat(SandboxedStepsTest.meta(r)).contains("\"mode\" : \"bubblewrap\"");
        }
    }

    @Test
    void inactivityAndMaxRuntimeUnderTheSandboxLeaveNoMarkerProcess() throws Exception {
        try (HarnessRunner runner = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP)) {
            RunRecord idle = run(runner, "trap '' TERM; sleep 300 & sleep 301; wait",
                    Limits.NONE.withInactivityTimeout(Duration.ofSeconds(2)).withMaxRuntime(Duration.ofMinutes(2)));
            assertThat(idle.termination().kind()).isEqualTo(Termination.Kind.INACTIVITY_TIMEOUT);
            RunRecord slow = run(runner, "while true; do echo tick; sleep 0.2; done",
                    Limits.NONE.withMaxRuntime(Duration.ofSeconds(3)));
            assertThat(slow.termination().kind()).isEqualTo(Termination.Kind.MAX_RUNTIME);
            assertThat(transcript(slow)).contains("tick");
        }
    }

    @Test
    void autoWithABwrapThatCannotRunRunsUnconfinedAndSaysWhy() throws Exception {
        Path bogus = tmp.resolve("no-such-bwrap");
        try (HarnessRunner runner = runner(Sandbox.AUTO, bogus)) {
            RunRecord r = run(runner, "cat " + fakeHome.resolve(".ssh/id_test") + "; echo x > out.txt", Limits.NONE);
            assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(transcript(r)).as("unconfined: the fake HOME is readable").contains("PRIVATE-KEY-MATERIAL");
            assertThat(SandboxedStepsTest.meta(r)).contains("\"setting\" : \"auto\"", "\"mode\" : \"unconfined\"", "bubblewrap is not installed",
                    bogus.toString());
        }
    }

    @Test
    void requiredWithABwrapThatCannotRunRefusesBeforeAnythingStarts() {
        Path bogus = tmp.resolve("no-such-bwrap");
        try (HarnessRunner runner = runner(Sandbox.REQUIRED, bogus)) {
            assertThatThrownBy(() -> runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:true")
                    .baseline(base).build()))
                    .isInstanceOf(HarnessException.class).hasMessageContaining("REQUIRED")
                    .hasMessageContaining("bubblewrap");
        }
        assertThat(tmp.resolve("state/runs")).doesNotExist();
        assertThat(tmp.resolve("state/results")).doesNotExist();
    }

    @Test
    void hostNetworkReachesAHostPortWhileTheFileSystemStaysConfined() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HarnessRunner runner = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.HOST)) {
            Thread accept = new Thread(() -> {
                try (var s = other.accept()) {
                    s.getOutputStream().write("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // the test's assertion says what went wrong
                }
            });
            accept.setDaemon(true);
            accept.start();
            RunRecord r = run(runner, "curl -sS --max-time 20 http://127.0.0.1:" + other.getLocalPort() + "/; echo\n"
                    + SandboxedStepsTest.attempt("read-ssh", "cat " + fakeHome.resolve(".ssh/id_test") + " 2>&1"),
                    Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)));
            assertThat(transcript(r)).contains("hello", "BLOCKED read-ssh").doesNotContain("PRIVATE-KEY-MATERIAL");
            assertThat(SandboxedStepsTest.meta(r)).contains("\"mode\" : \"bubblewrap\"", "\"network\" : \"host\"");
        }
    }

    @Test
    void aRunsOwnSandboxNetworkOverridesTheRunnersBothWays() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HarnessRunner meterOnly = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP);
                HarnessRunner host = runner(Sandbox.REQUIRED, Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.HOST)) {
            Thread accept = new Thread(() -> {
                while (!other.isClosed()) {
                    try (var s = other.accept()) {
                        s.getOutputStream().write("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        // closed: the test is over
                    }
                }
            });
            accept.setDaemon(true);
            accept.start();
            String script = SandboxedStepsTest.attempt("connect-host-port", "curl -sS --max-time 10 http://127.0.0.1:" + other.getLocalPort() + "/ 2>&1");
            Limits limits = Limits.NONE.withMaxRuntime(Duration.ofMinutes(2));

            RunRecord opened = runSpec(meterOnly, script, SandboxNetwork.HOST, limits);
            assertThat(transcript(opened)).contains("LEAK connect-host-port", "hello");
            assertThat(SandboxedStepsTest.meta(opened)).contains("\"network\" : \"host\"", "\"network_set_by\" : \"run\"");

            RunRecord runnerDefault = runSpec(meterOnly, script, null, limits);
            assertThat(transcript(runnerDefault)).contains("BLOCKED connect-host-port");
            assertThat(SandboxedStepsTest.meta(runnerDefault)).contains("\"network\" : \"meter-only\"", "\"network_set_by\" : \"runner\"");

            RunRecord closed = runSpec(host, script, SandboxNetwork.METER_ONLY, limits);
            assertThat(transcript(closed)).contains("BLOCKED connect-host-port").doesNotContain("hello");
            assertThat(SandboxedStepsTest.meta(closed)).contains("\"network\" : \"meter-only\"", "\"network_set_by\" : \"run\"");
        }
    }

    private RunRecord runSpec(HarnessRunner runner, String script, SandboxNetwork network, Limits limits) {
        RunRecord r = runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + script)
                .baseline(base).limits(limits).sandboxNetwork(network).build());
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    @Test
    void offRunsUnconfinedAndSaysSo() throws Exception {
        try (HarnessRunner runner = runner(Sandbox.OFF, Bubblewrap.DEFAULT_BWRAP)) {
            RunRecord r = run(runner, "cat " + fakeHome.resolve(".ssh/id_test"), Limits.NONE);
            assertThat(transcript(r)).contains("PRIVATE-KEY-MATERIAL");
            assertThat(SandboxedStepsTest.meta(r)).contains("\"setting\" : \"off\"", "\"mode\" : \"off\"");
        }
    }
}
