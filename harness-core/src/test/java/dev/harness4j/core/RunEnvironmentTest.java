package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Login;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.core.process.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run's processes get a built environment ({@link RunEnvironment}), not the runner's: a
 * variable planted in the runner's environment reaches none of them (the harness, its login
 * probe, an after-harness command, the version probe), confined or not, while a name given to
 * {@code inheritEnvironment} and a variable given to {@code environment} do; the adapter still
 * sees the planted one. Real processes; files under {@code target/} (the sandbox's /tmp is private).
 */
class RunEnvironmentTest {
    static final String PLANTED = "HARNESS4J_TEST_PLANTED_SECRET";
    static final String PLANTED_VALUE = "planted-aws-secret-7f3a";
    static final String NAMED = "HARNESS4J_TEST_NAMED";
    static final String GIVEN = "HARNESS4J_TEST_GIVEN";

    private Path tmp;
    private Path base;
    private Path home;

    @BeforeEach
    void setUp() throws IOException {
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        tmp = Files.createTempDirectory(target, "run-environment-test");
        base = GitFixture.repo(tmp.resolve("base"));
        home = Files.createDirectories(tmp.resolve("home"));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (tmp != null) {
            try (Stream<Path> s = Files.walk(tmp)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The shell harness; its version probe and login probe print what they got, and prepare says what it saw. */
    static final class EnvHarness implements Harness {
        private final ShellHarness shell = new ShellHarness();
        private final Path versionEnv;

        EnvHarness(Path versionEnv) {
            this.versionEnv = versionEnv;
        }

        @Override public String id() { return "env-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }

        @Override
        public InstallInfo installInfo() {
            return new InstallInfo("sh", List.of("-c", "env > '" + versionEnv + "'; echo env-test 1.0"), "apt-get install dash");
        }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            Invocation inv = shell.prepare(ctx);
            Map<String, String> env = new HashMap<>(inv.environment());
            env.put("ADAPTER_SAW_PLANTED", String.valueOf(ctx.environment().containsKey(PLANTED)));
            return new Invocation(inv.command(), env, inv.removeEnvironment(), inv.files(), inv.stdin(), inv.workingDir(),
                    inv.secretEnvironment());
        }

        @Override public HarnessResult interpret(Execution ex) { return shell.interpret(ex); }

        @Override
        public Optional<Invocation> loginProbe(HarnessContext ctx) {
            String script = "case \"$(env)\" in *" + PLANTED + "*) p=LEAK;; *) p=clean;; esac; "
                    + "echo \"{\\\"loggedIn\\\":true,\\\"authMethod\\\":\\\"planted=$p named=${" + NAMED
                    + ":-absent} given=${" + GIVEN + ":-absent}\\\"}\"";
            return Optional.of(Invocation.builder(ctx.executable(), "-c", script).workingDir(ctx.scratchDir()).build());
        }

        @Override
        public Login interpretLogin(Execution ex) {
            try {
                String out = Files.readString(ex.stdout()).strip();
                String method = out.replaceAll(".*\"authMethod\":\"([^\"]*)\".*", "$1");
                return new Login(Login.Status.LOGGED_IN, method, null, null, null, null);
            } catch (IOException e) {
                return Login.unknown();
            }
        }
    }

    private HarnessRunner runner(Sandbox sandbox, Path versionEnv) {
        Map<String, String> runnerEnv = new HashMap<>(System.getenv());
        runnerEnv.put("HOME", home.toString());
        runnerEnv.put(PLANTED, PLANTED_VALUE);
        runnerEnv.put(NAMED, "named-value");
        return HarnessRunner.builder().stateDir(tmp.resolve("state-" + sandbox)).sandbox(sandbox)
                .runnerEnvironment(runnerEnv).inheritEnvironment(NAMED).environment(Map.of(GIVEN, "given-value"))
                .registry(HarnessRegistry.builder().add(new EnvHarness(versionEnv)).build())
                .providers(ShellHarness.provider()).build();
    }

    @Test
    void aPlantedRunnerVariableReachesNoProcessOfARunConfinedOrNot() throws Exception {
        boolean bwrap = Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty();
        for (Sandbox mode : bwrap ? List.of(Sandbox.OFF, Sandbox.REQUIRED) : List.of(Sandbox.OFF)) {
            Path versionEnv = tmp.resolve("version-env-" + mode + ".txt");
            AtomicReference<String> after = new AtomicReference<>();
            try (HarnessRunner runner = runner(mode, versionEnv)) {
                RunRecord r = runner.run(RunSpec.builder("env-test", "local").model("m1").prompt("p").baseline(base)
                        .option("script", "env; echo done > done.txt").build(), "env-" + mode + "-" + System.nanoTime(),
                        HarnessListener.NONE, ctx -> {
                            Path log = ctx.scratchDir().resolve("after.log");
                            try {
                                ctx.run(List.of("sh", "-c", "env"), Map.of("STEP_VAR", "step"), Duration.ofSeconds(30), log);
                                after.set(Files.readString(log));
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
                assertThat(r.result().outcome()).as(mode.toString()).isEqualTo(Outcome.COMPLETED);
                String transcript = Files.readString(r.resultDir().resolve("transcript.log"), StandardCharsets.UTF_8);
                assertThat(transcript).as("the harness's environment (%s)", mode)
                        .contains(NAMED + "=named-value", GIVEN + "=given-value", "ADAPTER_SAW_PLANTED=true", "PATH=")
                        .doesNotContain(PLANTED, PLANTED_VALUE);
                String homeLine = transcript.lines().filter(l -> l.startsWith("HOME=")).findFirst().orElseThrow();
                if (mode == Sandbox.OFF) {
                    assertThat(homeLine).as("unconfined, HOME is the runner's").isEqualTo("HOME=" + home);
                } else {
                    assertThat(homeLine).as("confined, HOME is the sandbox's").isNotEqualTo("HOME=" + home);
                }
                assertThat(r.login().authMethod()).as("the login probe's environment (%s)", mode)
                        .isEqualTo("planted=clean named=named-value given=given-value");
                assertThat(after.get()).as("an after-harness command's environment (%s)", mode)
                        .contains(NAMED + "=named-value", GIVEN + "=given-value", "STEP_VAR=step")
                        .doesNotContain(PLANTED, PLANTED_VALUE);
                String version = Files.readString(versionEnv);
                assertThat(version).as("the version probe's environment (%s)", mode)
                        .contains(NAMED + "=named-value", GIVEN + "=given-value", "PATH=")
                        .doesNotContain(PLANTED, PLANTED_VALUE);
            }
        }
        Assumptions.assumeTrue(bwrap, "bubblewrap does not work here: only the unconfined half ran");
    }

    @Test
    void theRuleKeepsTheAllowlistInheritedNamesAndExplicitVariablesOnly() {
        Map<String, String> runner = Map.of("PATH", "/usr/bin", "HOME", "/home/u", "LANG", "C.UTF-8", "LC_TIME", "C",
                "TERM", "xterm", "TZ", "UTC", "AWS_SECRET_ACCESS_KEY", "aws", "GITHUB_TOKEN", "gh", "HTTPS_PROXY", "http://p",
                "XDG_RUNTIME_DIR", "/run/user/1");
        Map<String, String> env = RunEnvironment.of(runner).inherit(List.of("HTTPS_PROXY", "NOT_SET"))
                .with(Map.of("TZ", "Europe/Paris", "EXTRA", "x")).base();
        assertThat(env).containsOnly(Map.entry("PATH", "/usr/bin"), Map.entry("HOME", "/home/u"),
                Map.entry("LANG", "C.UTF-8"), Map.entry("LC_TIME", "C"), Map.entry("TERM", "xterm"),
                Map.entry("TZ", "Europe/Paris"), Map.entry("HTTPS_PROXY", "http://p"), Map.entry("EXTRA", "x"));
    }
}
