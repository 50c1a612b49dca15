package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.provider.ModelPrice;
import dev.harness4j.core.provider.PriceList;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs through the meter with a harness that calls the model with {@code curl}: the guard hears
 * about model traffic (activity, budgets), and meta.json gets the wire's figures.
 */
class MeteredRunTest {
    private static final String KEY = "sk-metered-run-test-0042";
    private static final String CHAT_OK = "{\"model\":\"m-2025\",\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":10}}";

    @TempDir Path tmp;
    private Path base;
    private Upstream upstream;
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        base = GitFixture.repo(tmp.resolve("base"));
        upstream = new Upstream();
    }

    @AfterEach
    void tearDown() {
        upstream.close();
    }

    /** Runs {@code sh -c <prompt>} with {@code $V1} the provider's /v1 URL and {@code $KEY} its key. */
    static final class CurlHarness implements Harness {
        @Override public String id() { return "curl-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo sh"), "apt-get install dash"); }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            String prompt = PhaseReports.withoutContract(ctx.prompt()); // the runner appends it by default
            String script = prompt.substring(prompt.indexOf("SCRIPT:") + "SCRIPT:".length());
            return Invocation.builder(ctx.executable(), "-c", script).workingDir(ctx.workspace())
                    .env("V1", ctx.provider().v1Url()).secretEnv("KEY", ctx.provider().secret().reveal()).build();
        }

        @Override
        public HarnessResult interpret(Execution ex) {
            return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model()).build();
        }
    }

    /** Provider {@code up}: the upstream's OpenAI-style endpoint, with {@code key} as a bearer token. */
    static ProviderResolver upstreamProvider(Upstream upstream, String key) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return Optional.of(new ResolvedProvider("up", EnumSet.of(ApiStyle.OPENAI), upstream.url(""), Secret.of(key),
                        AuthScheme.BEARER, model));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("up");
            }
        };
    }

    private HarnessRunner runner(boolean metering) {
        ProviderResolver p = upstreamProvider(upstream, KEY);
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).metering(metering)
                .sandbox(metering ? dev.harness4j.core.process.Sandbox.AUTO : dev.harness4j.core.process.Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new CurlHarness()).build())
                .installations(Installations.defaults())
                .providers(p).prices(PriceList.builder().price("up", "m", ModelPrice.of("2", "10")).build()).build();
    }

    private RunRecord run(HarnessRunner runner, String script, Limits limits) {
        RunRecord r = runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + script)
                .baseline(base).limits(limits).build());
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    private static String calls(int n, double pause) {
        return "i=0; while [ $i -lt " + n + " ]; do curl -s -o /dev/null -H \"Authorization: Bearer $KEY\" "
                + "-H 'content-type: application/json' -d '{\"model\":\"m\"}' \"$V1/chat/completions\"; sleep " + pause
                + "; i=$((i+1)); done";
    }

    @Test
    void aHarnessRetryingSilentlyIsNotStoppedAsIdleWhileItsRequestsKeepComingAndEndsTransient() throws Exception {
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 500,
                "application/json", "{\"error\":{\"type\":\"server_error\",\"message\":\"scripted 500\"}}"));
        Limits limits = Limits.NONE.withInactivityTimeout(Duration.ofSeconds(3)).withMaxRuntime(Duration.ofMinutes(2));
        String script = calls(4, 1.5); // under the 5 failures in a row that stop a run (WireStopRunTest)

        try (HarnessRunner runner = runner(true)) {
            RunRecord r = run(runner, script, limits);
            assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.EXITED);
            assertThat(r.result().outcome()).isEqualTo(Outcome.TRANSIENT);
            assertThat(r.result().reason()).contains("HTTP 500", "scripted 500");
            assertThat(r.adapterResult().outcome()).isEqualTo(Outcome.NO_OP);
            assertThat(r.meter().modelRequests()).isEqualTo(4);
            assertThat(r.result().tokens().isMeasured()).as("only refused requests: unmeasured, not 0").isFalse();
            String requests = Files.readString(r.resultDir().resolve("requests.jsonl"));
            assertThat(requests).doesNotContain(KEY).doesNotContain("cost_usd"); // unmeasured calls have no cost
        }
        try (HarnessRunner runner = runner(false)) { // without the meter, silence is idleness
            RunRecord r = run(runner, script, limits);
            assertThat(r.termination().kind()).isEqualTo(Termination.Kind.INACTIVITY_TIMEOUT);
            assertThat(r.meter()).isNull();
            assertThat(r.resultDir().resolve("requests.jsonl")).doesNotExist();
        }
    }

    @Test
    void aRunPassingItsModelRequestBudgetIsStoppedAsBudgetWithTheWiresTokensAndCost() throws Exception {
        upstream.on("/v1/chat/completions", ex -> {
            calls.incrementAndGet();
            Upstream.send(ex, 200, "application/json", CHAT_OK);
        });

        try (HarnessRunner runner = runner(true)) {
            RunRecord r = run(runner, calls(40, 0.2), Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))
                    .withMaxModelRequests(3));

            assertThat(r.result().outcome()).as(r.result().reason()).isEqualTo(Outcome.BUDGET);
            assertThat(r.result().reason()).contains("max model requests 3");
            assertThat(calls.get()).as("the request past the budget is refused, not forwarded").isEqualTo(3);
            assertThat(r.result().tokens().source()).isEqualTo(dev.harness4j.api.TokenUsage.Source.METERED);
            assertThat(r.result().tokens().input()).isEqualTo(3000);
            assertThat(r.result().tokens().output()).isEqualTo(30);
            assertThat(r.result().cost().source()).isEqualTo(dev.harness4j.api.Cost.Source.METERED_PRICE);
            assertThat(r.result().cost().usd()).isEqualByComparingTo(new BigDecimal("0.0063"));
            BigDecimal perCall = BigDecimal.ZERO; // each answered call's cost at the price, as a live view sums them
            for (String line : Files.readAllLines(r.resultDir().resolve("requests.jsonl"))) {
                com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
                if (n.path("status").asInt() == 200) {
                    assertThat(n.get("cost_usd").decimalValue()).as(line).isEqualByComparingTo(new BigDecimal("0.0021"));
                    perCall = perCall.add(n.get("cost_usd").decimalValue());
                } else {
                    assertThat(n.has("cost_usd")).as("a refused call has no cost: " + line).isFalse();
                }
            }
            assertThat(perCall).isEqualByComparingTo(r.result().cost().usd());
            assertThat(r.result().servedModel().verdict()).isEqualTo(dev.harness4j.api.ServedModel.Verdict.MISMATCH);
        }
    }

    @Test
    void aTokenBudgetStopsTheRun() throws Exception {
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", CHAT_OK));

        try (HarnessRunner runner = runner(true)) {
            RunRecord r = run(runner, calls(40, 0.2), Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))
                    .withMaxTokens(2500L));

            assertThat(r.result().outcome()).isEqualTo(Outcome.BUDGET);
            assertThat(r.termination().kind()).isEqualTo(Termination.Kind.BUDGET);
            assertThat(r.meter().budgetPassed()).contains("max tokens 2500");
            assertThat(r.meter().modelRequests()).isLessThan(10);
            assertThat(Files.readString(r.metaFile())).contains("\"budget_passed\"");
        }
    }
}
