package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchPlanException;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.job.InvalidJobPlanException;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobRunner;
import dev.harness4j.core.job.PhaseSpec;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bench and job plans with the real aider adapter and providers from a real {@code providers.json}:
 * every provider aider cannot run on is refused before anything is queued or written, all at once,
 * and an Anthropic-only provider, which aider reaches through LiteLLM, is planned.
 */
@RealCli
class AiderPlanTest {
    private static final String PROVIDERS = """
            {"schema_version": 1, "providers": [
              {"name": "local-anthropic", "api_styles": ["anthropic"], "base_url": "http://127.0.0.1:9",
               "key_env": "H4J_PLAN_ANTHROPIC_KEY", "models": ["claude-x"], "default_model": "claude-x"},
              {"name": "local-ollama", "api_styles": ["ollama"], "base_url": "http://127.0.0.1:11434",
               "default_model": "qwen3"},
              {"name": "claude-login", "cli_login": true, "models": ["sonnet"], "default_model": "sonnet"},
              {"name": "bearer-anthropic", "api_styles": ["anthropic"], "base_url": "http://127.0.0.1:9",
               "key_env": "H4J_PLAN_ANTHROPIC_KEY", "auth": "bearer", "default_model": "claude-x"},
              {"name": "stale-catalogue", "api_styles": ["openai"], "base_url": "http://127.0.0.1:9",
               "models": ["gpt-a"], "default_model": "gpt-b"}
            ]}
            """;

    @TempDir
    Path tmp;

    private Path state;
    private Path repo;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        Clis.require(new AiderHarness());
        state = tmp.resolve("state");
        Files.createDirectories(state.resolve("config"));
        Files.writeString(state.resolve("config/providers.json"), PROVIDERS);
        repo = GitRepos.baseline(tmp.resolve("repo"));
        Providers providers = Providers.builder().stateDir(state)
                .environment(Map.of("H4J_PLAN_ANTHROPIC_KEY", "sk-ant-plan-secret")).build();
        runner = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new AiderHarness()).build()).providers(providers).build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    @Test
    void aBenchPlanRefusesEveryProviderAiderCannotRunOnAtOnceAndQueuesNothing() {
        RunQueue queue = RunQueue.builder().stateDir(state).build();

        BenchPlanException e = org.junit.jupiter.api.Assertions.assertThrows(BenchPlanException.class,
                () -> BenchPlan.builder(runner).task("hello", "Create hello.txt").baseline(repo).harnesses("aider")
                        .provider("local-anthropic").provider("local-ollama").provider("claude-login")
                        .provider("bearer-anthropic").provider("stale-catalogue").build().enqueue(queue, runner.results()));

        assertThat(e.problems()).hasSize(4);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("aider × local-ollama: ")
                .contains("[OLLAMA]", "OpenAI Chat Completions, Anthropic Messages or Google's Gemini API"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("aider × claude-login: ")
                .contains("the CLI's own login", "base_url"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("aider × bearer-anthropic: ")
                .contains("x-api-key", "api_key"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p)
                .contains("provider 'stale-catalogue' does not list model 'gpt-b'", "harness4j providers refresh"));
        assertThat(e.problems()).noneMatch(p -> p.contains("local-anthropic"));
        assertThat(e.getMessage()).doesNotContain("sk-ant-plan-secret");
        assertThat(queue.entries()).as("nothing queued").isEmpty();
    }

    @Test
    void anAnthropicOnlyProviderIsPlannedForAiderWithoutAWarning() {
        BenchPlan plan = BenchPlan.builder(runner).task("hello", "Create hello.txt").baseline(repo).harnesses("aider")
                .provider("local-anthropic").build();

        assertThat(plan.combos()).singleElement().satisfies(c -> assertThat(c.resolvedModel()).isEqualTo("claude-x"));
        assertThat(plan.warnings()).as("claude-x is in its catalogue").isEmpty();
    }

    @Test
    void aJobPlanWithAPhaseOrFallbackAiderCannotRunOnIsRefusedBeforeAnythingIsWritten() {
        try (JobRunner jobs = JobRunner.builder(runner).build()) {
            JobPlan plan = JobPlan.builder(repo).harness("aider").provider("local-anthropic")
                    .phase(PhaseSpec.builder("design", "Write PLAN.md").provider("local-ollama").build())
                    .phase(PhaseSpec.builder("build", "Implement it").fallback("claude-login", null).build())
                    .build();

            assertThatThrownBy(() -> jobs.run(plan)).isInstanceOf(InvalidJobPlanException.class)
                    .satisfies(e -> assertThat(((InvalidJobPlanException) e).problems()).hasSize(2))
                    .hasMessageContaining("phase design: aider × local-ollama: ")
                    .hasMessageContaining("phase build's fallback claude-login: aider × claude-login: ");
        }
        assertThat(state.resolve("jobs")).as("nothing written").doesNotExist();
        assertThat(List.of(state.resolve("runs"))).allSatisfy(d -> assertThat(d).doesNotExist());
    }
}
