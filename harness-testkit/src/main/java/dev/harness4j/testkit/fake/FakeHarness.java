package dev.harness4j.testkit.fake;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.core.AutonomyPreamble;
import java.util.List;

/**
 * A harness adapter for tests that runs a {@link FakeScript} with {@code sh} instead of a
 * coding agent: OPAQUE, so its outcome follows the exit code and the git changes.
 *
 * <pre>{@code
 * HarnessRegistry registry = HarnessRegistry.builder().add(new FakeHarness()).build();
 * RunSpec spec = FakeScript.builder().writeFile("a.txt", "a\n").commit("add a").build()
 *         .applyTo(RunSpec.builder(FakeHarness.ID, "scripted"))
 *         .prompt("add a file").baseline(repo).build();
 * }</pre>
 *
 * <p>The script comes from the run's {@link #SCRIPT_OPTION} option, else from the prompt when it
 * is a script's text form ({@link FakeScript#isScript}); otherwise the fake prints the prompt and
 * exits 0 (a no-op). {@link #prepare} is pure: the script travels as an invocation file ({@link
 * #SCRIPT_FILE} in the scratch dir). The provider's key, when there is one, is in {@link
 * #KEY_ENV} (declared secret), the model in {@code FAKE_MODEL}, the base URL in {@code
 * FAKE_BASE_URL}. Not registered for {@code ServiceLoader}, so it never shows up in discovery.
 */
public final class FakeHarness implements Harness {
    /** The harness id. */
    public static final String ID = "fake";
    /** The run spec option holding {@link FakeScript#encode()}. */
    public static final String SCRIPT_OPTION = "fake.script";
    /** The script's file name in the scratch dir. */
    public static final String SCRIPT_FILE = "fake-harness.sh";
    /** The variable holding the provider's key (a secret). */
    public static final String KEY_ENV = "FAKE_API_KEY";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public int apiVersion() {
        return API_VERSION; // the harness-api contract this adapter was built against
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("sh", List.of("-c", "echo fake-harness 1"),
                "nothing to install: the fake harness runs the POSIX shell 'sh'");
    }

    @Override
    public Invocation prepare(HarnessContext ctx) {
        String task = ctx.task(); // the caller's text, without what the runner adds
        String prompt = AutonomyPreamble.isFramed(task) // a caller may have framed it itself
                ? task.substring(AutonomyPreamble.TEXT.length()) : task;
        FakeScript script = ctx.option(SCRIPT_OPTION).map(FakeScript::decode)
                .orElseGet(() -> FakeScript.isScript(prompt)
                        ? FakeScript.decode(prompt)
                        : FakeScript.builder().print(prompt.strip()).build());
        Invocation.Builder b = Invocation.builder(ctx.executable(), ctx.scratchDir().resolve(SCRIPT_FILE).toString())
                .file(SCRIPT_FILE, script.toShell())
                .env("FAKE_MODEL", ctx.model())
                .env("FAKE_BASE_URL", ctx.provider().baseUrl().toString())
                .workingDir(ctx.workspace());
        if (ctx.provider().secret() != null) {
            b.secretEnv(KEY_ENV, ctx.provider().secret().reveal());
        }
        return b.build();
    }

    @Override
    public HarnessResult interpret(Execution ex) {
        Outcome outcome = Outcomes.opaque(ex);
        String reason = null;
        if (ex.termination().stopped() || ex.termination().kind() == dev.harness4j.api.Termination.Kind.START_FAILED) {
            reason = ex.termination().reason();
        } else if (outcome == Outcome.ERROR) {
            reason = "the fake harness exited with code " + ex.exitCode();
        } else if (outcome == Outcome.NO_OP) {
            reason = "the fake harness changed nothing";
        }
        List<String> last = ex.stdoutTail(1);
        return HarnessResult.builder(outcome, ex.context().model())
                .reason(reason)
                .summary(last.isEmpty() ? null : last.get(0))
                .build();
    }
}
