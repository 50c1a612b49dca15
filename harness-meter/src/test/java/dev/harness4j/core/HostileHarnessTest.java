package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.api.Termination;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.process.Sandbox;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile shell harness in the default sandbox (bubblewrap, meter-only network) tries what a
 * prompt injection would: reach host Unix sockets, read host secrets and host trees it was not
 * given, remount its read-only view, keep the credential it holds. Every attempt is blocked or
 * useless, while what a CLI needs still works. And a harness's {@code TERM} handler gets its grace
 * inside the sandbox. The test's own files live under {@code target/} and {@code /var/tmp}: outside
 * the run's dirs, outside HOME and {@code /tmp}.
 */
class HostileHarnessTest {
    private static final String KEY = "sk-hostile-harness-real-key-0042";
    private static final String CHAT_OK = "{\"model\":\"m-2025\",\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1}}";

    private Path tmp;
    private Path varTmp;
    private Path base;
    private Upstream upstream;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        tmp = Files.createTempDirectory(target, "hostile-test");
        varTmp = Files.createTempDirectory(Path.of("/var/tmp"), "h4j-hostile");
        base = GitFixture.repo(tmp.resolve("base"));
        upstream = new Upstream();
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", CHAT_OK));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (upstream != null) {
            upstream.close();
        }
        for (Path dir : new Path[] {tmp, varTmp}) {
            if (dir != null) {
                try (Stream<Path> s = Files.walk(dir)) {
                    s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /**
     * {@code sh -c <script>} with {@code $V1} the meter's /v1 URL and {@code $KEY} the credential it
     * was handed (kept in {@link #handed} for the test), and the sandbox paths it declares.
     */
    static final class ShellHarness implements Harness {
        final AtomicReference<String> handed = new AtomicReference<>();
        final AtomicReference<String> handedUrl = new AtomicReference<>();
        final List<Path> readOnly = new ArrayList<>();
        final List<Path> writable = new ArrayList<>();
        String executable; // null: the installed sh

        @Override public String id() { return "hostile-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo sh"), "apt-get install dash"); }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            String prompt = PhaseReports.withoutContract(ctx.prompt());
            String script = prompt.substring(prompt.indexOf("SCRIPT:") + "SCRIPT:".length());
            handed.set(ctx.provider().secret().reveal());
            handedUrl.set(ctx.provider().v1Url());
            Invocation.Builder b = Invocation.builder(executable != null ? executable : ctx.executable(), "-c", script).workingDir(ctx.workspace())
                    .env("V1", ctx.provider().v1Url()).secretEnv("KEY", ctx.provider().secret().reveal());
            readOnly.forEach(b::readOnlyPath);
            writable.forEach(b::writablePath);
            return b.build();
        }

        @Override
        public HarnessResult interpret(Execution ex) {
            return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model()).build();
        }
    }

    private HarnessRunner runner(Harness harness, Duration termGrace) {
        return HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .sandbox(Sandbox.REQUIRED).termGrace(termGrace)
                .registry(HarnessRegistry.builder().add(harness).build())
                .installations(Installations.defaults()).providers(MeteredRunTest.upstreamProvider(upstream, KEY)).build();
    }

    private RunRecord run(HarnessRunner runner, String script, Limits limits, String runId) {
        return run(runner, script, limits, runId == null ? "hostile-" + System.nanoTime() : runId, HarnessListener.NONE);
    }

    private RunRecord run(HarnessRunner runner, String script, Limits limits, String runId, HarnessListener listener) {
        RunSpec spec = RunSpec.builder("hostile-test", "up").model("m").prompt("SCRIPT:" + script).baseline(base)
                .limits(limits).build();
        RunRecord r = runner.run(spec, runId, listener);
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    private static String transcript(RunRecord r) throws IOException {
        return Files.readString(r.resultDir().resolve("transcript.log"), StandardCharsets.UTF_8);
    }

    /** A Unix socket that answers {@code HOST-SOCKET} to whoever connects, checked from here first. */
    private static ServerSocketChannel hostSocket(Path path) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
        Thread t = new Thread(() -> {
            while (server.isOpen()) {
                try (SocketChannel c = server.accept()) {
                    c.write(java.nio.ByteBuffer.wrap("HOST-SOCKET\n".getBytes(StandardCharsets.US_ASCII)));
                } catch (IOException e) {
                    return; // closed: the test is over
                }
            }
        }, "host-socket");
        t.setDaemon(true);
        t.start();
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            assertThat(probe.isConnected()).as("the host socket works from outside").isTrue();
        }
        return server;
    }

    /** Connects to a Unix socket with perl (always there: the relay needs it); prints what it answered. */
    private static String connect(Path socket) {
        return "perl -e 'socket(my $s, 1, 1, 0) or die \"socket: $!\\n\"; connect($s, pack(\"S a*\", 1, $ARGV[0])) "
                + "or die \"connect: $!\\n\"; print scalar(<$s>)' " + socket + " 2>&1";
    }

    @Test
    void aHostileHarnessReachesNoHostSocketReadsNoHostSecretOrTreeAndCannotRemountWhileTheSystemWorks() throws Exception {
        Path realHome = Path.of(System.getProperty("user.home")).toAbsolutePath();
        Path worktree = Path.of("").toAbsolutePath().getParent(); // another work tree for the agent
        Path outside = Files.createDirectories(tmp.resolve("outside")); // beside the state dir, not given to the run
        Files.writeString(outside.resolve("planted.txt"), "PLANTED-TARGET");
        Files.writeString(varTmp.resolve("planted.txt"), "PLANTED-VARTMP");
        Assumptions.assumeTrue(Files.isReadable(Path.of("/etc/shadow")), "/etc/shadow is readable here (root)");
        String shadowLine = Files.readAllLines(Path.of("/etc/shadow")).get(0);
        ShellHarness harness = new ShellHarness();
        try (ServerSocketChannel s1 = hostSocket(varTmp.resolve("host.sock"));
                ServerSocketChannel s2 = hostSocket(outside.resolve("host.sock"));
                HarnessRunner runner = runner(harness, Duration.ofSeconds(2))) {
            List<String[]> blocked = new ArrayList<>(List.of(
                    new String[] {"socket-var-tmp", connect(varTmp.resolve("host.sock"))},
                    new String[] {"socket-target", connect(outside.resolve("host.sock"))},
                    new String[] {"read-shadow", "grep -q . /etc/shadow 2>&1"}, // masked: it reads as empty
                    new String[] {"read-gshadow", "grep -q . /etc/gshadow 2>&1"},
                    new String[] {"list-ssl-private", "ls -A /etc/ssl/private 2>&1 | grep -q ."},
                    new String[] {"read-planted-target", "cat " + outside.resolve("planted.txt") + " 2>&1"},
                    new String[] {"read-planted-var-tmp", "cat " + varTmp.resolve("planted.txt") + " 2>&1"},
                    new String[] {"list-var-tmp-dir", "ls " + varTmp + " 2>&1"},
                    new String[] {"read-other-work-tree", "cat " + worktree.resolve("pom.xml") + " 2>&1"},
                    new String[] {"see-run", Files.isSymbolicLink(Path.of("/etc/resolv.conf"))
                            ? "find /run ! -type d ! -type f 2>/dev/null | grep -q ." // only the file resolv.conf leads to
                            : "test -e /run"},
                    new String[] {"see-var-lib", "test -e /var/lib"},
                    new String[] {"see-home", "test -e /home"},
                    new String[] {"see-srv", "test -e /srv"},
                    new String[] {"see-mnt", "test -e /mnt"},
                    new String[] {"see-opt", "test -e /opt"},
                    new String[] {"see-sys", "test -e /sys/kernel"},
                    new String[] {"see-home-cache-beyond-tools", "ls " + realHome.resolve(".cache")
                            + " | grep -qv '^harness4j$'"},
                    new String[] {"see-pyenv-shims", "test -e " + realHome.resolve(".pyenv/shims")},
                    new String[] {"remount-baseline-rw", "mount -o remount,rw,bind " + base + " 2>&1 && echo x > "
                            + base.resolve("remounted.txt")},
                    new String[] {"write-root", "echo x > /hostile.txt 2>&1"},
                    new String[] {"write-usr", "echo x > /usr/hostile.txt 2>&1"},
                    new String[] {"write-etc", "echo x > /etc/hostile.txt 2>&1"}));
            StringBuilder script = new StringBuilder("echo start\n");
            for (String[] a : blocked) {
                script.append(SandboxedStepsTest.attempt(a[0], a[1]));
            }
            script.append(SandboxedStepsTest.attempt("read-passwd", "grep -q '^root:' /etc/passwd"))
                    .append(SandboxedStepsTest.attempt("run-git", "git status --porcelain >/dev/null 2>&1"))
                    .append(SandboxedStepsTest.attempt("read-tools-dir", "test -d " + Installations.defaultToolsBin()))
                    .append(SandboxedStepsTest.attempt("write-var-tmp", "echo x > /var/tmp/own.txt"))
                    .append("echo \"$KEY\" > leaked-credential.txt\n")
                    .append("code=$(curl -s -o /dev/null -w '%{http_code}' -H \"Authorization: Bearer $KEY\" "
                            + "-H 'content-type: application/json' -d '{\"model\":\"m\"}' \"$V1/chat/completions\")\n")
                    .append("echo METER-$code\necho end\n");
            RunRecord r = run(runner, script.toString(), Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)), null);
            String t = transcript(r);
            for (String[] a : blocked) {
                assertThat(t).as(t).contains("BLOCKED " + a[0]).doesNotContain("LEAK " + a[0]);
            }
            for (String works : List.of("read-passwd", "run-git", "read-tools-dir", "write-var-tmp")) {
                assertThat(t).as(t).contains("LEAK " + works); // what a CLI needs is there
            }
            assertThat(t).contains("start", "METER-200", "end").doesNotContain("HOST-SOCKET", "PLANTED-", shadowLine);
            assertThat(Files.exists(base.resolve("remounted.txt"))).isFalse();
            assertThat(Files.exists(Path.of("/hostile.txt"))).isFalse();
            assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);

            // the credential it held, written into its workspace, is no real key and is dead after the run
            String token = harness.handed.get();
            assertThat(token).isNotEqualTo(KEY).startsWith("h4j-run-");
            assertThat(r.changes().files()).contains("leaked-credential.txt");
            assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).doesNotContain(KEY);
            String v1 = harness.handedUrl.get();
            HttpResponse<String> dead = client.send(HttpRequest.newBuilder(URI.create(v1 + "/chat/completions"))
                    .header("authorization", "Bearer " + token).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(dead.statusCode()).as("the leaked token after its run").isEqualTo(401);
            assertThat(upstream.received).as("only the run's own request went upstream").hasSize(1);
        }
    }

    @Test
    void anInvocationsOwnPathsAreShownReadOnlyAndWritable() throws Exception {
        Path ro = Files.createDirectories(varTmp.resolve("ro"));
        Files.writeString(ro.resolve("data.txt"), "READ-ONLY-DATA");
        Path rw = Files.createDirectories(varTmp.resolve("rw"));
        Path notAsked = Files.createDirectories(varTmp.resolve("not-asked"));
        Files.writeString(notAsked.resolve("data.txt"), "NOT-ASKED");
        ShellHarness harness = new ShellHarness();
        harness.readOnly.add(ro);
        harness.readOnly.add(varTmp.resolve("missing")); // skipped
        harness.writable.add(rw);
        try (HarnessRunner runner = runner(harness, Duration.ofSeconds(2))) {
            String script = "cat " + ro.resolve("data.txt") + "\n"
                    + SandboxedStepsTest.attempt("write-read-only", "echo x > " + ro.resolve("x.txt") + " 2>&1")
                    + SandboxedStepsTest.attempt("read-not-asked", "cat " + notAsked.resolve("data.txt") + " 2>&1")
                    + "echo written > " + rw.resolve("out.txt") + " && echo WROTE-writable\n";
            RunRecord r = run(runner, script, Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)), null);
            String t = transcript(r);
            assertThat(t).as(t).contains("READ-ONLY-DATA", "BLOCKED write-read-only", "BLOCKED read-not-asked",
                    "WROTE-writable").doesNotContain("NOT-ASKED");
            assertThat(Files.readString(rw.resolve("out.txt"))).isEqualTo("written\n");
            assertThat(ro.resolve("x.txt")).doesNotExist();
        }
    }

    @Test
    void anExecutableInstalledOutsideTheSystemIsShownWithItsInstallButNotItsNeighbours() throws Exception {
        Path prefix = Files.createDirectories(varTmp.resolve("opt/agent"));
        Path exe = Files.createDirectories(prefix.resolve("bin")).resolve("agent");
        Files.writeString(exe, "#!/bin/sh\nexec /bin/sh \"$@\"\n");
        exe.toFile().setExecutable(true);
        Files.createDirectories(prefix.resolve("share"));
        Files.writeString(prefix.resolve("share/data.txt"), "AGENT-DATA");
        Files.writeString(varTmp.resolve("opt/neighbour.txt"), "NEIGHBOUR");
        ShellHarness harness = new ShellHarness();
        harness.executable = exe.toString();
        try (HarnessRunner runner = runner(harness, Duration.ofSeconds(2))) {
            RunRecord r = run(runner, "cat " + prefix.resolve("share/data.txt") + "\n"
                    + SandboxedStepsTest.attempt("read-neighbour", "cat " + varTmp.resolve("opt/neighbour.txt") + " 2>&1")
                    + SandboxedStepsTest.attempt("write-install", "echo x > " + prefix.resolve("x.txt") + " 2>&1"),
                    Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)), null);
            String t = transcript(r);
            assertThat(t).as(t).contains("AGENT-DATA", "BLOCKED read-neighbour", "BLOCKED write-install")
                    .doesNotContain("NEIGHBOUR");
        }
    }

    /**
     * A harness whose {@code TERM} handler takes 1 s in-process (no child a second sweep could
     * signal), then writes a marker into the workspace and exits 0; it prints {@code ready} once
     * the handler is installed.
     */
    private static final String TERM_HANDLER = "exec perl -e '$SIG{TERM} = sub { select(undef, undef, undef, 1); "
            + "open(my $f, \">\", \"term-marker.txt\") or die; print $f \"flushed\\n\"; close $f; "
            + "print \"got-term\\n\"; exit 0 }; $| = 1; print \"ready\\n\"; sleep 1 while 1'";

    @Test
    void aTermHandlerGetsTheGraceInsideTheSandboxOnMaxRuntime() throws Exception {
        try (HarnessRunner runner = runner(new ShellHarness(), Duration.ofSeconds(8))) {
            RunRecord r = run(runner, TERM_HANDLER, Limits.NONE.withMaxRuntime(Duration.ofSeconds(3)), null);
            assertThat(r.termination().kind()).isEqualTo(Termination.Kind.MAX_RUNTIME);
            assertThat(transcript(r)).contains("ready", "got-term");
            assertThat(r.changes().files()).as("the handler's marker, written 1 s into the grace")
                    .contains("term-marker.txt");
            assertThat(Files.readString(r.metaFile())).contains("\"mode\" : \"bubblewrap\"");
        }
    }

    @Test
    void aTermHandlerGetsTheGraceInsideTheSandboxOnABailAndAStubbornTreeIsStillKilled() throws Exception {
        try (HarnessRunner runner = runner(new ShellHarness(), Duration.ofSeconds(8))) {
            String runId = "hostile-bail-" + System.nanoTime();
            RunRecord r = run(runner, TERM_HANDLER, Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)), runId,
                    bailOn(runner, runId, "ready"));
            assertThat(r.result().outcome()).isEqualTo(Outcome.BAILED);
            assertThat(transcript(r)).contains("got-term");
            assertThat(r.changes().files()).contains("term-marker.txt");
        }
        try (HarnessRunner runner = runner(new ShellHarness(), Duration.ofSeconds(1))) {
            String runId = "hostile-stubborn-" + System.nanoTime();
            RunRecord r = run(runner, "trap '' TERM; sleep 300 & sleep 301 & echo ready; wait",
                    Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)), runId, bailOn(runner, runId, "ready"));
            assertThat(r.result().outcome()).isEqualTo(Outcome.BAILED); // and run(..) found nothing left
        }
    }

    /** Bails the run (from another thread) when it prints {@code line}. */
    private static HarnessListener bailOn(HarnessRunner runner, String runId, String line) {
        return e -> {
            if (e instanceof HarnessEvent.OutputLine o && o.text().equals(line)) {
                CompletableFuture.runAsync(() -> runner.bail(runId));
            }
        };
    }
}
