package dev.harness4j.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Harness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Installation;
import dev.harness4j.core.Installations;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link Harness} contract as a JUnit 5 test: extend it with your adapter and every rule is
 * checked. The offline checks always run; the real-CLI ones ({@link RealCli}) run your CLI through the
 * runner against a {@link ScriptedModelServer}, and are skipped when the CLI is not installed (failed
 * when {@code HARNESS4J_REQUIRE_CLIS=1}).
 *
 * <pre>{@code
 * class NotesAgentContractTest extends HarnessContract {
 *     protected Harness harness() { return new NotesAgentHarness(); }
 *     protected String expectedChange() { return "NOTES.md"; }
 * }
 * }</pre>
 *
 * <p>Override {@link #cli()} to run a CLI that is not on {@code PATH}, {@link #completedScenario()}
 * when the default script does not drive your CLI, {@link #apiStyles()} to run it on one API style, and {@link #usesModel()} for a CLI that never
 * calls a model. {@link #checkCompleted} and {@link #checkFailing} add an adapter's own checks to
 * the contract's real runs, so that the same scenario is not run a second time elsewhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HarnessContract {
    /** The error classes a failing endpoint may give. */
    public static final Set<Outcome> ERROR_CLASSES = EnumSet.of(Outcome.ERROR, Outcome.AUTH, Outcome.TRANSIENT,
            Outcome.RATE_LIMITED, Outcome.BAD_REQUEST);
    /** The file the default completed scenario writes. */
    public static final String CONTRACT_FILE = "contract.txt";

    private ScriptedModelServer server;

    @TempDir
    private Path tmp;

    /** For subclasses. */
    protected HarnessContract() {}

    /**
     * The adapter under test.
     *
     * @return a new instance of the adapter
     */
    protected abstract Harness harness();

    /**
     * Where the CLI is: by default the {@link Installations#defaults()} lookup ({@code PATH}, the tools
     * cache). Return a path for a CLI installed elsewhere.
     *
     * @return the CLI's path, or empty for the default lookup
     */
    protected Optional<Path> cli() {
        return Optional.empty();
    }

    /**
     * Whether the CLI calls a model; a CLI that does not skips the failing-endpoint and timeout checks.
     *
     * @return {@code true} by default
     */
    protected boolean usesModel() {
        return true;
    }

    /**
     * The scripted task that should complete: by default the model writes {@link #CONTRACT_FILE} and
     * says so.
     *
     * @return the scenario
     */
    protected Scenario completedScenario() {
        return Scenario.builder().writeFile(CONTRACT_FILE, "written by the contract\n").usage(100, 20, 0, 0)
                .say("Wrote " + CONTRACT_FILE + ".").usage(110, 5, 0, 0).build();
    }

    /**
     * The scripted failure: every request (side requests such as title generation included) is
     * answered 401.
     *
     * @return the scenario
     */
    protected Scenario failingScenario() {
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 12; i++) {
            s.fail(401, "invalid x-api-key");
        }
        return s.build();
    }

    /**
     * The file the completed task must change.
     *
     * @return a path relative to the workspace
     */
    protected String expectedChange() {
        return CONTRACT_FILE;
    }

    /**
     * The limits of the real runs (not the timeout check's).
     *
     * @return 120 s of inactivity and 180 s in all, by default
     */
    protected Limits limits() {
        return new Limits(Duration.ofSeconds(120), Duration.ofSeconds(180), null);
    }

    /**
     * The API styles the scripted provider serves, in the real runs and in the offline checks'
     * context: all the scripted server speaks by default ({@link ScriptedProvider#STYLES}).
     * Override it to run the contract on one route of an adapter that picks its route by the
     * provider's styles (e.g. an Anthropic-only provider).
     *
     * @return a non-empty subset of {@link ScriptedProvider#STYLES}
     */
    protected Set<ApiStyle> apiStyles() {
        return ScriptedProvider.STYLES;
    }

    /**
     * The adapter options every real run gets (e.g. no retries, to keep the failing run short).
     *
     * @return none by default
     */
    protected Map<String, String> options() {
        return Map.of();
    }

    /**
     * More checks of the completed run, for what the adapter shows beyond the contract (its
     * outcome details, tokens, the requests its CLI sent): they run on the contract's run rather
     * than in a second real-CLI run of the same scenario. Nothing by default.
     *
     * @param run the run of {@link #completedScenario()}, already checked by the contract
     * @param requests what the scripted server received for it, in order
     * @throws Exception when a check cannot read what it needs
     */
    protected void checkCompleted(RunRecord run, List<RecordedRequest> requests) throws Exception {}

    /**
     * More checks of the failing run ({@link #failingScenario()}: 401 answers), e.g. which error
     * class exactly. Nothing by default.
     *
     * @param run the run, already checked by the contract
     * @param requests what the scripted server received for it, in order
     * @throws Exception when a check cannot read what it needs
     */
    protected void checkFailing(RunRecord run, List<RecordedRequest> requests) throws Exception {}

    @BeforeAll
    final void startServer() {
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    final void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** The adapter is in {@code META-INF/services}, once, with a unique id. */
    @Test
    void registeredWithAUniqueId() {
        HarnessChecks.registeredOnceWithUniqueId(harness());
    }

    /** {@code installInfo} names a binary, a version probe and an install hint. */
    @Test
    void installInfoIsSensible() {
        HarnessChecks.installInfoIsSensible(harness());
    }

    /** {@code prepare} writes nothing, starts nothing, passes prompt and model, keeps secrets out of argv. */
    @Test
    void prepareIsPure() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("prepare"));
        Path ws = GitRepos.withReadme(root.resolve("workspace"));
        Path scratch = Files.createDirectories(root.resolve("scratch"));
        HarnessChecks.prepareIsPure(harness(), root, HarnessChecks.context(ws, scratch, "/usr/bin/" + harness().installInfo().binary(),
                apiStyles()), usesModel());
    }

    /** {@code unsupported} and {@code prepare} refuse the same providers with the same text. */
    @Test
    void unsupportedAgreesWithPrepare() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("unsupported"));
        Path ws = GitRepos.withReadme(root.resolve("workspace"));
        Path scratch = Files.createDirectories(root.resolve("scratch"));
        HarnessChecks.unsupportedAgreesWithPrepare(harness(), HarnessChecks.context(ws, scratch,
                "/usr/bin/" + harness().installInfo().binary()));
    }

    /** {@code interpret} survives empty, garbage, truncated and 10 MB-line output and reports nothing measured. */
    @Test
    void interpretSurvivesBadOutput() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("interpret"));
        Path ws = GitRepos.withReadme(root.resolve("workspace"));
        Path scratch = Files.createDirectories(root.resolve("scratch"));
        HarnessChecks.interpretSurvivesBadOutput(harness(), Files.createDirectories(root.resolve("out")),
                HarnessChecks.context(ws, scratch, "/usr/bin/" + harness().installInfo().binary(), apiStyles()));
    }

    /** The real CLI's version probe answers. */
    @Test
    @RealCli
    void versionProbeAnswers() {
        Installation inst = installations().check(harness());
        assertThat(inst.versionText()).as("the version probe %s of %s", harness().installInfo().versionArgs(),
                inst.executablePath()).isPresent();
    }

    /** A scripted task that completes gives {@code completed}, the change in the diff, no zero for unmeasured. */
    @Test
    @RealCli
    void completedTaskGivesCompletedAndTheChange() throws Exception {
        RunRecord r = run("contract-completed", completedScenario(), limits());
        assertThat(r.result().outcome()).as(describe(r)).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().files()).as(describe(r)).contains(expectedChange());
        if (r.result().cost() != null) {
            assertThat(r.result().cost().usd()).as("a measured cost of a run that used tokens").isPositive();
        }
        HarnessChecks.noZeroForUnmeasured(r.result().tokens(), "the run's");
        HarnessChecks.noZeroForUnmeasured(r.adapterResult().tokens(), "the adapter's");
        assertThat(r.sections().get("cli")).as("meta.json's cli section: which binary ran").asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsKey("version")
                .extractingByKey("sha256").asString().hasSize(64);
        checkCompleted(r, requests("contract-completed"));
    }

    /**
     * An endpoint that answers 401 gives an error class, never success; through the meter (on
     * here) the first 401 stops the run at once ({@link Termination.Kind#AUTH_REFUSED}), so a
     * refused key ends the run in seconds, whatever the CLI's own retries, and the adapter
     * reports it as {@link Outcome#AUTH}. The time it took is printed ({@code [contract] <id>:
     * a refused key ended the run in <ms> ms}).
     */
    @Test
    @RealCli
    void failingEndpointGivesAnErrorClass() throws Exception {
        Assumptions.assumeTrue(usesModel(), "the CLI calls no model");
        RunRecord r = run("contract-failing", failingScenario(), limits());
        System.out.printf("[contract] %s: a refused key ended the run in %d ms (%s; stages %s)%n", harness().id(),
                r.duration().toMillis(), r.termination() == null ? "-" : r.termination().kind(), r.stageTimes());
        assertThat(r.result().outcome()).as(describe(r)).isIn(ERROR_CLASSES);
        if (r.termination() != null && r.termination().kind() == Termination.Kind.AUTH_REFUSED) {
            assertThat(r.result().outcome()).as("a run the meter stopped for a refused key; " + describe(r))
                    .isEqualTo(Outcome.AUTH);
        }
        assertThat(r.duration()).as("a refused key ends the run in seconds, not minutes; " + describe(r))
                .isLessThan(Duration.ofSeconds(60));
        HarnessChecks.noZeroForUnmeasured(r.adapterResult().tokens(), "the adapter's");
        checkFailing(r, requests("contract-failing"));
    }

    /** A run past its max runtime times out and leaves no process carrying its marker. */
    @Test
    @RealCli
    void timeoutLeavesNoProcess() {
        Assumptions.assumeTrue(usesModel(), "the CLI calls no model");
        RunRecord r = run("contract-timeout", Scenario.builder().stall(Duration.ofSeconds(120)).say("late").build(),
                new Limits(null, Duration.ofSeconds(4), null));
        assertThat(r.result().outcome()).as(describe(r)).isEqualTo(Outcome.TIMEOUT);
        assertThat(RunMarker.find(r.runId())).as("processes carrying run %s's marker", r.runId()).isEmpty();
    }

    private Installations installations() {
        Optional<Path> path = cli();
        if (path.isPresent()) {
            return Installations.builder().path(harness().id(), path.get()).build();
        }
        Clis.require(harness());
        return Installations.defaults();
    }

    private RunRecord run(String model, Scenario scenario, Limits limits) {
        Installations inst = installations();
        server.script(model, scenario);
        Path repo = GitRepos.withReadme(tmp.resolve("repo-" + model));
        RunSpec.Builder spec = RunSpec.builder(harness().id(), ScriptedProvider.NAME).model(model)
                .prompt("Do the scripted task.").baseline(repo).limits(limits);
        options().forEach(spec::option);
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(harness()).build()).installations(inst)
                .providers(new ScriptedProvider(server, apiStyles())).build()) {
            return runner.run(spec.build());
        }
    }

    private List<RecordedRequest> requests(String model) {
        return server.requests().stream().filter(q -> model.equals(q.model())).toList();
    }

    private static String describe(RunRecord r) {
        String meta;
        try {
            meta = Files.readString(r.metaFile());
        } catch (IOException e) {
            meta = "(no meta.json: " + e + ")";
        }
        return "run " + r.runId() + ": " + r.result() + "\n" + meta;
    }
}
