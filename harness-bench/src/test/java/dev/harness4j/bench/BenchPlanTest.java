package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AutonomyPreamble;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.RunQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchPlanTest {
    @TempDir Path state;
    @TempDir Path repo;
    private List<ProviderResolver> resolvers;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(repo.resolve(".git"));
        Map<String, String> defaults = new HashMap<>();
        defaults.put("scripted", "scripted-a");
        defaults.put("other", "o-1");
        defaults.put("nodefault", null);
        resolvers = List.of(BenchTesting.resolver(defaults));
        runner = HarnessRunner.builder().stateDir(state).registry(BenchTesting.registry())
                .providers(resolvers.toArray(ProviderResolver[]::new)).build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private BenchPlan.Builder plan() {
        return BenchPlan.builder(runner).task("hello", "Create hello.txt").baseline(repo);
    }

    @Test
    void anUnknownHarnessInAPlanOfSixQueuesNothingAndSaysWhatToFix() {
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        assertThatThrownBy(() -> plan().harnesses("claude-code", "opencode", "aidr").provider("scripted")
                .models("scripted-a", "scripted-b").build().enqueue(queue, runner.results()))
                .isInstanceOf(BenchPlanException.class)
                .hasMessageContaining("unknown harness 'aidr'")
                .hasMessageContaining("aider")
                .hasMessageContaining("nothing was queued");
        assertThat(queue.entries()).isEmpty();
    }

    @Test
    void everyProblemIsListedAtOnce() {
        BenchPlanException e = org.junit.jupiter.api.Assertions.assertThrows(BenchPlanException.class, () -> plan()
                .harnesses("ghost", "nope").provider("nodefault").provider("broken").provider("unheard").build());
        assertThat(e.problems()).hasSize(5);
        assertThat(e.getMessage())
                .contains("harness 'ghost' is not installed", "install it with: npm i -g definitely-not-installed-h4j@1.0.0")
                .contains("unknown harness 'nope'")
                .contains("'nodefault' has no default model: pass --model")
                .contains("BROKEN_KEY")
                .contains("unknown provider 'unheard'");
    }

    @Test
    void aMissingPromptRepoOrHarnessIsReported() {
        BenchPlanException e = org.junit.jupiter.api.Assertions.assertThrows(BenchPlanException.class,
                () -> BenchPlan.builder(runner)
                        .provider("scripted").baseline(state).build());
        assertThat(e.getMessage()).contains("no harness", "no task", "is not a git repository");
    }

    @Test
    void severalTasksAndProvidersOfOneModelArePlannedAsCombosOfTheirOwn() {
        BenchPlan p = plan().task("other", "Do something else").harnesses("aider").provider("scripted").provider("other")
                .models("scripted-a").build();
        assertThat(p.combos()).extracting(c -> c.task().name() + "/" + c.provider())
                .containsExactlyInAnyOrder("hello/scripted", "other/scripted", "hello/other", "other/other");
    }

    @Test
    void duplicateCombosCollapseAndTheDefaultModelCountsAsItsName() {
        BenchPlan p = plan().harnesses("aider", "aider").provider("scripted").models("scripted-a", "scripted-a").build();
        assertThat(p.combos()).hasSize(1);
        BenchPlan withDefault = plan().harnesses("aider").provider("scripted").build();
        assertThat(withDefault.combos()).singleElement().satisfies(c -> {
            assertThat(c.model()).isNull();
            assertThat(c.resolvedModel()).isEqualTo("scripted-a");
            assertThat(c.query()).isEqualTo(ResultQuery.all().task("hello").harness("aider").provider("scripted")
                    .model("scripted-a"));
        });
    }

    @Test
    void consecutiveRunsHitDifferentProviders() {
        BenchPlan p = plan().harnesses("claude-code", "opencode", "aider").provider("scripted").provider("other").build();
        List<String> providers = p.combos().stream().map(Combo::provider).toList();
        assertThat(providers).hasSize(6);
        for (int i = 1; i < providers.size(); i++) {
            assertThat(providers.get(i)).as("run " + i).isNotEqualTo(providers.get(i - 1));
        }
    }

    private void cached(String harness, String runId, String outcome, String verdict) throws Exception {
        Path dir = Files.createDirectories(runner.results().dirFor("hello", harness, "scripted", "scripted-a", runId));
        Files.writeString(dir.resolve("meta.json"), "{\"run_id\":\"" + runId + "\",\"harness\":\"" + harness
                + "\",\"provider\":\"scripted\",\"model\":\"scripted-a\",\"resolved_model\":\"scripted-a\","
                + "\"task\":\"hello\",\"outcome\":\"" + outcome + "\",\"finished_at\":\"2026-12-01T00:00:00Z\","
                + "\"served_model\":{\"requested\":\"scripted-a\",\"answered\":[],\"verdict\":\"" + verdict + "\"}}");
    }

    @Test
    void aStrictServedModelPolicyRunsAgainCachedSuccessesThatWereNotServedByTheirModel() throws Exception {
        cached("aider", "r1", "completed", "match");       // stands
        cached("opencode", "r2", "completed", "unmeasured"); // written under a laxer policy: runs again
        cached("claude-code", "r3", "error", "unmeasured");  // a failure stays one: not re-run
        BenchPlan lax = plan().harnesses("aider", "opencode", "claude-code").provider("scripted").models("scripted-a")
                .build();
        assertThat(lax.toRun(runner.results(), null)).as("policy off: every cached result stands").isEmpty();
        try (HarnessRunner strict = HarnessRunner.builder().stateDir(state).registry(BenchTesting.registry())
                .providers(resolvers.toArray(ProviderResolver[]::new))
                .requireServedModel(dev.harness4j.core.Requirement.STRICT).build()) {
            BenchPlan p = BenchPlan.builder(strict).task("hello", "Create hello.txt").baseline(repo)
                    .harnesses("aider", "opencode", "claude-code").provider("scripted").models("scripted-a").build();
            assertThat(p.toRun(strict.results(), null)).extracting(Combo::harness).containsExactly("opencode");
        }
    }

    @Test
    void combosWithAResultAreSkippedUnlessForced() throws Exception {
        Path existing = Files.createDirectories(runner.results().dirFor("hello", "aider", "scripted", "scripted-a", "r1"));
        Files.writeString(existing.resolve("meta.json"), "{\"run_id\":\"r1\",\"harness\":\"aider\",\"provider\":\"scripted\","
                + "\"model\":\"scripted-a\",\"resolved_model\":\"scripted-a\",\"task\":\"hello\",\"outcome\":\"completed\","
                + "\"finished_at\":\"2026-12-01T00:00:00Z\"}");
        BenchPlan p = plan().harnesses("aider", "opencode").provider("scripted").models("scripted-a").build();
        assertThat(p.toRun(runner.results(), null)).extracting(Combo::harness).containsExactly("opencode");
        assertThat(p.matrix(runner.results(), null)).contains("2 runs, 1 to run").contains("skip: result exists");
        BenchPlan otherTask = plan().task("other", "Do something else").harnesses("aider").provider("scripted")
                .models("scripted-a").build();
        assertThat(otherTask.toRun(runner.results(), null)).extracting(c -> c.task().name()).containsExactly("other");
        BenchPlan forced = plan().harnesses("aider", "opencode").provider("scripted").models("scripted-a").force(true).build();
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        assertThat(forced.enqueue(queue, runner.results())).hasSize(2);
    }

    @Test
    void aComboStillInTheQueueIsNotQueuedAgainEvenWhenForced() {
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        BenchPlan p = plan().harnesses("aider", "opencode").provider("scripted").models("scripted-a").build();
        queue.enqueue(List.of(p.spec(p.combos().get(0)))); // left by an earlier bench that crashed
        assertThat(p.matrix(runner.results(), queue)).contains("2 runs, 1 to run, 1 already queued")
                .contains("queued: runs from the earlier entry");
        assertThat(p.enqueue(queue, runner.results())).extracting(e -> e.spec().harness())
                .containsExactly(p.combos().get(1).harness());
        BenchPlan forced = plan().harnesses("aider", "opencode").provider("scripted").models("scripted-a").force(true).build();
        assertThat(forced.enqueue(queue, runner.results())).isEmpty();
        assertThat(queue.entries()).hasSize(2);
    }

    @Test
    void everySpecCarriesTheTaskAsWrittenForTheRunnerToFrame() {
        BenchPlan p = plan().harnesses("aider").provider("scripted").ref("main").build();
        RunSpec spec = p.spec(p.combos().get(0));
        assertThat(spec.prompt()).doesNotContain(AutonomyPreamble.TEXT).contains("Create hello.txt");
        assertThat(spec.model()).isEqualTo("scripted-a");
        assertThat(spec.task()).isEqualTo("hello");
        assertThat(spec.ref()).isEqualTo("main");
    }

    @Test
    void enqueuedEntriesFollowThePlansOrder() {
        BenchPlan p = plan().harnesses("claude-code", "aider").provider("scripted").provider("other").build();
        assertThat(p.combos()).extracting(Combo::resolvedModel).containsOnly("scripted-a", "o-1");
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        List<QueueEntry> q = p.enqueue(queue, runner.results());
        assertThat(queue.entries()).extracting(e -> e.spec().harness() + "/" + e.spec().provider())
                .containsExactlyElementsOf(p.combos().stream().map(c -> c.harness() + "/" + c.provider()).toList());
        assertThat(q).hasSize(4);
    }

    @Test
    void aPairTheAdapterRefusesIsListedOnceWithEveryOtherProblemAndNothingIsQueued() {
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        try (HarnessRunner r = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(BenchTesting.speaking("claudish", ApiStyle.ANTHROPIC))
                        .add(BenchTesting.harness("aider", "cat")).build())
                .providers(resolvers.toArray(ProviderResolver[]::new)).build()) {
            BenchPlanException e = org.junit.jupiter.api.Assertions.assertThrows(BenchPlanException.class,
                    () -> BenchPlan.builder(r).task("hello", "Create hello.txt").baseline(repo)
                            .harnesses("claudish", "aider", "nope").provider("scripted").provider("other")
                            .models("m-1", "m-2").build().enqueue(queue, r.results()));
            assertThat(e.problems()).as("the pair once for both models, all problems at once").hasSize(3);
            assertThat(e.problems().get(0)).contains("unknown harness 'nope'");
            assertThat(e.problems().subList(1, 3)).containsExactly(
                    "claudish × scripted: claudish speaks only ANTHROPIC, but provider 'scripted' serves [OPENAI]; "
                            + "pick a provider that serves ANTHROPIC",
                    "claudish × other: claudish speaks only ANTHROPIC, but provider 'other' serves [OPENAI]; "
                            + "pick a provider that serves ANTHROPIC");
            assertThat(e.getMessage()).contains("nothing was queued");
        }
        assertThat(queue.entries()).isEmpty();
    }

    @Test
    void aModelTheCatalogueDoesNotListIsAProblemAndOneNoCatalogueConfirmsAWarningInTheMatrix() {
        Providers providers = Providers.builder().environment(Map.of()).add(
                ProviderConfig.builder("listed").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:2").keyOptional()
                        .models("m-1", "m-2").build()).build();
        try (HarnessRunner r = HarnessRunner.builder().stateDir(state).registry(BenchTesting.registry())
                .providers(providers, resolvers.get(0)).build()) {
            BenchPlanException e = org.junit.jupiter.api.Assertions.assertThrows(BenchPlanException.class,
                    () -> BenchPlan.builder(r).task("hello", "Create hello.txt").baseline(repo).harnesses("aider")
                            .provider("listed").models("m-1", "m-3").build());
            assertThat(e.problems()).singleElement().asString().contains("provider 'listed' does not list model 'm-3'",
                    "m-1, m-2", "harness4j providers refresh listed");

            BenchPlan ok = BenchPlan.builder(r).task("hello", "Create hello.txt").baseline(repo).harnesses("aider", "opencode")
                    .provider("listed").provider("scripted").models("m-1", "m-2").build();
            assertThat(ok.warnings()).containsExactly(Preflight.unchecked("scripted", List.of("m-1", "m-2")));
            assertThat(ok.matrix(r.results(), null)).contains("  warning: provider 'scripted' has no model catalogue, "
                    + "so models m-1, m-2 were not checked");
            assertThat(ok.combos()).hasSize(8);
        }
    }
}
