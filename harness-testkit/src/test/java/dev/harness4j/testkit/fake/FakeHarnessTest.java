package dev.harness4j.testkit.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunMarker;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake harness with real processes (through {@link ProcessSupervisor}) and a real git repo. */
class FakeHarnessTest {
    private static final String KEY = "sk-fake-0123456789-secret";

    @TempDir Path tmp;
    private Path repo;
    private Path scratch;
    private final FakeHarness fake = new FakeHarness();
    private final ProcessSupervisor supervisor = ProcessSupervisor.builder().termGrace(Duration.ofMillis(500)).build();
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @BeforeEach
    void repo() throws Exception {
        repo = Files.createDirectories(tmp.resolve("repo"));
        scratch = Files.createDirectories(tmp.resolve("scratch"));
        git("init", "-q", "-b", "main");
        Files.writeString(repo.resolve("README.md"), "hello\n");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base");
    }

    @AfterEach
    void close() {
        supervisor.close();
        pool.shutdownNow();
    }

    @Test
    void isAnOpaqueHarnessCalledFakeThatTheRegistryAcceptsInCode() {
        assertThat(fake.id()).isEqualTo("fake");
        assertThat(fake.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(HarnessRegistry.builder().add(fake).build().require("fake")).isSameAs(fake);
        assertThat(HarnessRegistry.fromServices().find("fake")).isEmpty();
    }

    @Test
    void aScriptSurvivesItsTextFormInARunSpecOption() {
        FakeScript script = FakeScript.builder().print("tab\there 'quoted' \\ back\nslash").repeat("same", 3)
                .count("step", 2, Duration.ofMillis(250)).silence(Duration.ofSeconds(2)).writeFile("a/b.txt", "x\n")
                .commit("msg").ignoreTerm().orphanGrandchild(Duration.ofMinutes(1)).flood(4096)
                .printBytes((byte) 0xff, (byte) 'a').printEnv(FakeHarness.KEY_ENV).printErr("err").exit(3).build();
        RunSpec spec = script.applyTo(RunSpec.builder(FakeHarness.ID, "scripted")).prompt("p").baseline(repo).build();

        assertThat(FakeScript.decode(spec.options().get(FakeHarness.SCRIPT_OPTION))).isEqualTo(script);
        assertThatThrownBy(() -> FakeScript.decode("print\tx")).hasMessageContaining(FakeScript.HEADER);
    }

    @Test
    void prepareIsPureAndPutsTheScriptKeyAndModelIntoTheInvocation() {
        FakeScript script = FakeScript.builder().print("hi").build();
        Invocation inv = fake.prepare(scripted(script, "fake-run"));

        assertThat(inv.command()).containsExactly("sh", scratch.resolve(FakeHarness.SCRIPT_FILE).toString());
        assertThat(inv.files()).containsEntry(FakeHarness.SCRIPT_FILE, script.toShell());
        assertThat(inv.workingDir()).isEqualTo(repo);
        assertThat(inv.secretValues()).containsExactly(KEY);
        assertThat(inv.environment()).containsEntry("FAKE_MODEL", "fake-model");
        assertThat(scratch.resolve(FakeHarness.SCRIPT_FILE)).doesNotExist();
    }

    @Test
    void writesAndCommitsAFileThenCompletes() throws Exception {
        String base = git("rev-parse", "HEAD");
        Result r = run(FakeScript.builder().print("working").writeFile("src/hello.txt", "hello\n")
                .commit("add hello").print("done").build());

        assertThat(r.outcome.exitCode()).isZero();
        assertThat(git("log", "-1", "--format=%s")).isEqualTo("add hello");
        assertThat(git("show", "HEAD:src/hello.txt")).isEqualTo("hello");
        assertThat(r.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.result.summary()).isEqualTo("done");
        assertThat(git("rev-parse", "HEAD")).isNotEqualTo(base);
    }

    @Test
    void anOnlyUntrackedFileCompletesAndNothingIsANoOp() throws Exception {
        assertThat(run(FakeScript.builder().writeFile("new.txt", "n\n").build()).result.outcome())
                .isEqualTo(Outcome.COMPLETED);
        Files.delete(repo.resolve("new.txt"));
        assertThat(run(FakeScript.builder().print("nothing to do").build()).result.outcome()).isEqualTo(Outcome.NO_OP);
    }

    @Test
    void aNonZeroExitIsAnErrorAndLaterStepsDoNotRun() throws Exception {
        Result r = run(FakeScript.builder().print("before").exit(3).print("after").build());

        assertThat(r.outcome.exitCode()).isEqualTo(3);
        assertThat(r.result.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.result.reason()).contains("code 3");
        assertThat(Files.readString(scratch.resolve("stdout.log"))).isEqualTo("before\n");
    }

    @Test
    void printsToBothStreamsAndRepeatsAndCountsLines() throws Exception {
        run(FakeScript.builder().print("out").printErr("err").repeat("same", 3).count("step", 3, Duration.ZERO).build());

        assertThat(Files.readString(scratch.resolve("stdout.log"))).isEqualTo("out\nsame\nsame\nsame\nstep 1\nstep 2\nstep 3\n");
        assertThat(Files.readString(scratch.resolve("stderr.log"))).isEqualTo("err\n");
    }

    @Test
    void theKeyItPrintsNeverReachesTheTranscript() throws Exception {
        Result r = run(FakeScript.builder().printEnv(FakeHarness.KEY_ENV).print("key " + KEY).build());

        assertThat(r.outcome.exitCode()).isZero();
        assertThat(Files.readString(scratch.resolve("transcript.log"))).doesNotContain(KEY).isEqualTo("***\nkey ***\n");
    }

    @Test
    void printsRawBytesAndFloods() throws Exception {
        run(FakeScript.builder().printBytes((byte) 0xff, (byte) 'o', (byte) 'k', (byte) '\n').flood(3 * 1024 + 10).build());

        byte[] out = Files.readAllBytes(scratch.resolve("stdout.log"));
        assertThat(out).hasSize(4 + 3 * 1024 + 10);
        assertThat(out[0]).isEqualTo((byte) 0xff);
        assertThat(Files.readString(scratch.resolve("transcript.log"), StandardCharsets.UTF_8)).startsWith("\uFFFDok\naaa");
    }

    @Test
    void repeatingTheSameLineEndsInAnInactivityTimeout() throws Exception {
        Result r = run(FakeScript.builder().repeat("thinking...", 100, Duration.ofMillis(100)).build(),
                Limits.NONE.withInactivityTimeout(Duration.ofMillis(800)));

        assertThat(r.outcome.termination().kind()).isEqualTo(Termination.Kind.INACTIVITY_TIMEOUT);
        assertThat(r.result.outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void bailingAStubbornFakeLeavesNoProcessOfTheRun() throws Exception {
        String runId = "fake-" + UUID.randomUUID();
        FakeScript script = FakeScript.builder().ignoreTerm().orphanGrandchild(Duration.ofMinutes(2))
                .print("ready").silence(Duration.ofMinutes(2)).build();
        Invocation inv = fake.prepare(scripted(script, runId));
        Future<ProcessOutcome> f = pool.submit(() -> supervisor.run(ProcessRequest.builder(runId, inv, scratch).build()));
        awaitLine(scratch.resolve("stdout.log"), "ready");
        assertThat(RunMarker.find(runId)).hasSizeGreaterThanOrEqualTo(3);

        supervisor.bail(runId);

        assertThat(f.get(30, TimeUnit.SECONDS).termination().kind()).isEqualTo(Termination.Kind.BAILED);
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    @Test
    void aGrandchildOutlivingAFakeThatExitedIsKilledToo() throws Exception {
        String runId = "fake-" + UUID.randomUUID();
        Invocation inv = fake.prepare(scripted(FakeScript.builder().orphanGrandchild(Duration.ofMinutes(2)).build(), runId));

        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, inv, scratch).build());

        assertThat(outcome.exitCode()).isZero();
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    @Test
    void withoutAScriptItPrintsThePromptOrRunsAScriptGivenAsThePrompt() throws Exception {
        Invocation plain = fake.prepare(prompted("just a prompt"));
        Invocation fromPrompt = fake.prepare(prompted(FakeScript.builder().print("from prompt").build().encode()));

        assertThat(plain.files().get(FakeHarness.SCRIPT_FILE)).contains("'just a prompt'");
        assertThat(fromPrompt.files().get(FakeHarness.SCRIPT_FILE)).contains("'from prompt'");
    }

    private record Result(ProcessOutcome outcome, HarnessResult result) {}

    private Result run(FakeScript script) throws Exception {
        return run(script, Limits.NONE);
    }

    private Result run(FakeScript script, Limits limits) throws Exception {
        String base = git("rev-parse", "HEAD");
        String runId = "fake-" + UUID.randomUUID();
        HarnessContext ctx = scripted(script, runId);
        Invocation inv = fake.prepare(ctx);
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, inv, scratch).limits(limits)
                .secret(KEY).build());
        String head = git("rev-parse", "HEAD");
        boolean dirty = !git("status", "--porcelain").isEmpty();
        GitChanges changes = new GitChanges(base, head, !head.equals(base), dirty, List.of(), 0, 0);
        Execution ex = new Execution(ctx, inv, outcome.exitCode(), outcome.termination(), scratch.resolve("stdout.log"),
                scratch.resolve("stderr.log"), changes, outcome.duration());
        return new Result(outcome, fake.interpret(ex));
    }

    /** A context whose run spec option carries the script. */
    private HarnessContext scripted(FakeScript script, String runId) {
        return base(runId).prompt("do it").option(FakeHarness.SCRIPT_OPTION, script.encode()).build();
    }

    /** A context with only a prompt, no script option. */
    private HarnessContext prompted(String prompt) {
        return base("fake-run").prompt(prompt).build();
    }

    private HarnessContext.Builder base(String runId) {
        return HarnessContext.builder().runId(runId)
                .provider(new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:9"),
                        Secret.of(KEY), AuthScheme.API_KEY, "fake-model"))
                .workspace(repo).scratchDir(scratch).executable("sh");
    }

    private static void awaitLine(Path file, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readAllLines(file).contains(line)) {
                return;
            }
            Thread.sleep(20); // the raw file has no change notification; poll it briefly
        }
        throw new AssertionError("no line '" + line + "' in " + file + " within 10 s");
    }

    private String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("git " + List.of(args) + " failed: " + out);
        }
        return out;
    }
}
