package dev.harness4j.testkit.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Cost;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.GatewayFault;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gateway accounting through {@link HarnessRunner} against the scripted server's LiteLLM-style
 * gateway: the fake harness makes real model calls (curl) through the meter with the run's
 * minted key; the gateway writes their spend rows in delayed batches.
 */
class GatewayAccountingTest {
    private static final String ADMIN = "sk-admin-master-4242424242424242";
    private static final String ADMIN_ENV = "H4J_TEST_LITELLM_MASTER_KEY";
    private static final String KEY_ENV = "H4J_TEST_GATEWAY_KEY";
    private static final String MODEL = "gw-model";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;
    private ScriptedModelServer server;
    private HarnessRunner runner;

    @AfterEach
    void tearDown() {
        if (runner != null) {
            runner.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** A server whose spend rows show {@code flush} after the batch's first call; two scripted turns. */
    private void start(Duration flush) {
        server = ScriptedModelServer.builder().spendLogDelay(flush).start().requireKey(ADMIN);
        server.script(MODEL, Scenario.builder().say("one").usage(100, 20, 0, 0).say("two").usage(40, 8, 30, 0).build());
    }

    private HarnessRunner runner(Map<String, String> env, GatewayOptions options, URI gatewayUrl) {
        ProviderConfig gw = ProviderConfig.builder("gw").apiStyles(ApiStyle.OPENAI, ApiStyle.ANTHROPIC)
                .baseUrl(gatewayUrl).key(KEY_ENV, AuthScheme.BEARER).keyOptional()
                .gateway(ProviderConfig.Gateway.litellm(ADMIN_ENV)).build();
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                .providers(Providers.builder().add(gw).environment(env).build())
                .sandbox(Sandbox.OFF).loginProbe(false).gateway(options).build();
        return runner;
    }

    private static GatewayOptions fast() {
        return GatewayOptions.defaults().withPollInterval(Duration.ofMillis(2500)).withSettleBudget(Duration.ofSeconds(60));
    }

    /** Two calls {@code gap} apart, then a file and exit 0. */
    private RunSpec spec(Duration gap) throws IOException {
        Path repo = GitRepos.withReadme(Files.createTempDirectory(tmp, "repo"));
        FakeScript script = FakeScript.builder().callModel("first").silence(gap).callModel("second")
                .writeFile("done.txt", "done\n").build();
        return script.applyTo(RunSpec.builder(FakeHarness.ID, "gw")).model(MODEL).prompt("call twice").baseline(repo)
                .task("gateway").build();
    }

    private static JsonNode meta(RunRecord r) throws IOException {
        return JSON.readTree(r.metaFile().toFile());
    }

    @Test
    void twoAgreeingReadsRecordTheWholeRunWhereTheFirstReadWasPartial() throws Exception {
        start(Duration.ofMillis(1500));
        // call 1 opens a batch shown 1.5 s later; call 2, 2.5 s after it, opens a second batch:
        // the first read after the run sees only call 1
        RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN), fast(), server.baseUrl()).run(spec(Duration.ofMillis(2500)));

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        JsonNode g = meta(r).path("gateway");
        assertThat(g.path("status").asText()).isEqualTo("settled");
        assertThat(g.path("rows_per_poll").get(0).asInt()).as("a single read would record a partial total: %s", g)
                .isLessThan(2);
        assertThat(g.path("rows").asInt()).isEqualTo(2);
        TokenUsage t = r.result().tokens();
        assertThat(t.source()).isEqualTo(TokenUsage.Source.GATEWAY);
        assertThat(t.input()).isEqualTo(140L);
        assertThat(t.output()).isEqualTo(28L);
        assertThat(t.cacheRead()).isEqualTo(30L);
        assertThat(r.result().cost().source()).isEqualTo(Cost.Source.GATEWAY);
        assertThat(r.result().cost().usd()).isEqualByComparingTo("0.000226"); // (140+30) * 1e-6 + 28 * 2e-6
        // the meter's figures beside the gateway's, and they agree
        assertThat(meta(r).path("meter").path("tokens").path("input").asLong()).isEqualTo(140L);
        assertThat(g.path("compared_with_metered").path("disagree").asBoolean()).isFalse();
        assertThat(r.result().servedModel().answered()).contains(MODEL);
        // minted with the run's labels, then revoked
        RecordedRequest mint = only("/key/generate");
        JsonNode body = JSON.readTree(mint.body());
        assertThat(body.path("metadata").path("harness4j_run_id").asText()).isEqualTo(r.runId());
        assertThat(body.path("metadata").path("harness4j_task").asText()).isEqualTo("gateway");
        assertThat(body.path("metadata").path("tags").toString()).contains("harness4j-run:" + r.runId());
        assertThat(body.path("duration").asText()).isEqualTo(GatewayOptions.DEFAULT_KEY_LIFETIME.toSeconds() + "s");
        assertThat(g.path("revoked").asBoolean()).isTrue();
        assertThat(server.gatewayDeletedKeys()).isEqualTo(1);
        assertThat(server.gatewayLiveKeys()).isZero();
        // the model calls used the minted key, not the admin key
        assertThat(server.requests(RecordedRequest.Kind.TURN)).hasSize(2);
        assertNoSecretIn(r, ADMIN);
    }

    @Test
    void aSpentBudgetKeepsTheBestSnapshotAndSaysItMayBePartial() throws Exception {
        start(Duration.ofMillis(1500));
        GatewayOptions oneRead = GatewayOptions.defaults().withPollInterval(Duration.ofSeconds(30))
                .withSettleBudget(Duration.ofMillis(500));

        RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN), oneRead, server.baseUrl()).run(spec(Duration.ofMillis(2500)));

        JsonNode g = meta(r).path("gateway");
        assertThat(g.path("status").asText()).isEqualTo("unsettled");
        assertThat(g.path("polls").asInt()).isEqualTo(1);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("did not settle").contains("may be partial"));
        if (g.path("rows").asInt() > 0) { // the partial snapshot is kept, labelled
            assertThat(r.result().tokens().source()).isEqualTo(TokenUsage.Source.GATEWAY);
            assertThat(r.result().cost().note()).contains("partial");
        } else {
            assertThat(r.result().tokens().source()).isEqualTo(TokenUsage.Source.METERED);
        }
        assertThat(server.gatewayDeletedKeys()).isEqualTo(1);
    }

    @Test
    void aFailedMintDegradesToTheConfiguredKeyAndSaysSo() throws Exception {
        start(Duration.ofMillis(100));
        server.gatewayFault(GatewayFault.MINT_FAILS);

        RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN, KEY_ENV, ADMIN), fast(), server.baseUrl())
                .run(spec(Duration.ZERO));

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        JsonNode g = meta(r).path("gateway");
        assertThat(g.path("status").asText()).isEqualTo("degraded");
        assertThat(g.path("key").asText()).isEqualTo("configured");
        assertThat(g.path("reason").asText()).contains("/key/generate").contains("HTTP 500");
        assertThat(r.result().tokens().source()).isEqualTo(TokenUsage.Source.METERED);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("gateway degraded").contains("the meter's"));
        assertThat(server.requests()).noneMatch(q -> q.path().equals("/spend/logs"));
        assertNoSecretIn(r, ADMIN);
    }

    @Test
    void anUnsetAdminKeyVariableIsNamedAndTheRunGoesOn() throws Exception {
        start(Duration.ofMillis(100));

        RunRecord r = runner(Map.of(KEY_ENV, ADMIN), fast(), server.baseUrl()).run(spec(Duration.ZERO));

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        JsonNode g = meta(r).path("gateway");
        assertThat(g.path("status").asText()).isEqualTo("degraded");
        assertThat(g.path("reason").asText()).contains(ADMIN_ENV).contains("not set");
        assertThat(server.requests()).noneMatch(q -> q.path().startsWith("/key/"));
    }

    @Test
    void anUnreachableGatewayDegradesTheRunWithoutFailingIt() throws Exception {
        start(Duration.ofMillis(100));
        URI dead;
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            dead = URI.create("http://127.0.0.1:" + s.getLocalPort());
        }

        RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN), fast(), dead).run(spec(Duration.ZERO));

        assertThat(r.result().outcome()).isNotEqualTo(Outcome.COMPLETED); // the model calls had nowhere to go
        assertThat(r.stage()).isNull(); // but the run went through every stage: no gateway failure failed it
        JsonNode g = meta(r).path("gateway");
        assertThat(g.path("status").asText()).isEqualTo("degraded");
        assertThat(g.path("reason").asText()).contains("unreachable");
        assertNoSecretIn(r, ADMIN);
    }

    @Test
    void spendLogsAnswering500OrGarbageLeaveTheMetersTokensAndAClearNote() throws Exception {
        for (GatewayFault fault : List.of(GatewayFault.SPEND_500, GatewayFault.SPEND_GARBAGE,
                GatewayFault.SPEND_WRONG_SHAPE)) {
            start(Duration.ofMillis(100));
            server.gatewayFault(fault);
            GatewayOptions shortBudget = GatewayOptions.defaults().withPollInterval(Duration.ofMillis(300))
                    .withSettleBudget(Duration.ofSeconds(1));

            RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN), shortBudget, server.baseUrl()).run(spec(Duration.ZERO));

            assertThat(r.result().outcome()).as(fault.name()).isEqualTo(Outcome.COMPLETED);
            JsonNode g = meta(r).path("gateway");
            assertThat(g.path("status").asText()).as(fault.name()).isEqualTo("unreadable");
            assertThat(g.path("last_error").asText()).as(fault.name()).contains("/spend/logs");
            assertThat(r.result().tokens().source()).as(fault.name()).isEqualTo(TokenUsage.Source.METERED);
            assertThat(r.notes()).as(fault.name())
                    .anySatisfy(n -> assertThat(n).contains("spend logs could not be read").contains("the meter's"));
            assertThat(server.gatewayDeletedKeys()).as("revoked after " + fault).isEqualTo(1);
            assertNoSecretIn(r, ADMIN);
            tearDown();
        }
        runner = null;
        server = null;
    }

    @Test
    void aFailedRevokeIsNotedAndTheKeyExpiresByItself() throws Exception {
        start(Duration.ofMillis(100));
        server.gatewayFault(GatewayFault.DELETE_FAILS);

        RunRecord r = runner(Map.of(ADMIN_ENV, ADMIN), fast(), server.baseUrl()).run(spec(Duration.ZERO));

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(meta(r).path("gateway").path("revoked").asBoolean()).isFalse();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("revoking the run's key failed").contains("expires"));
        assertThat(r.result().tokens().source()).isEqualTo(TokenUsage.Source.GATEWAY);
    }

    @Test
    void healthAndCatalogueUseTheAdminKeyAndMintNothing() throws Exception {
        start(Duration.ofMillis(100));
        ProviderConfig gw = ProviderConfig.builder("gw").apiStyles(ApiStyle.OPENAI, ApiStyle.ANTHROPIC)
                .baseUrl(server.baseUrl()).key(KEY_ENV, AuthScheme.BEARER).keyOptional()
                .gateway(ProviderConfig.Gateway.litellm(ADMIN_ENV)).build();
        Providers withAdmin = Providers.builder().add(gw).environment(Map.of(ADMIN_ENV, ADMIN)).build();
        Providers withoutAdmin = Providers.builder().add(gw).environment(Map.of()).build();

        var health = withAdmin.health("gw");
        assertThat(health.healthy()).as(health.detail()).isTrue();
        assertThat(health.endpoint().getPath()).isEqualTo("/health/readiness");
        assertThat(withAdmin.fetchCatalogue("gw").models()).contains(MODEL); // the server wants the admin key here
        assertThatThrownBy(() -> withoutAdmin.fetchCatalogue("gw")).hasMessageContaining("HTTP 401")
                .hasMessageContaining(ADMIN_ENV).hasMessageNotContaining(ADMIN);
        assertThat(server.requests()).noneMatch(q -> q.path().startsWith("/key/"));
    }

    private RecordedRequest only(String path) {
        List<RecordedRequest> hits = server.requests().stream().filter(q -> q.path().equals(path)).toList();
        assertThat(hits).as(path).hasSize(1);
        return hits.get(0);
    }

    /** Neither the admin key nor any minted key in any file of the run's result or the state dir. */
    private void assertNoSecretIn(RunRecord r, String admin) throws IOException {
        List<String> secrets = new java.util.ArrayList<>(List.of(admin));
        for (RecordedRequest q : server.requests()) {
            if (q.path().equals("/key/delete")) {
                JSON.readTree(q.body()).path("keys").forEach(k -> secrets.add(k.asText()));
            }
        }
        try (Stream<Path> files = Files.walk(tmp.resolve("state"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (String s : secrets) {
                    assertThat(text).as("%s holds a key", f).doesNotContain(s);
                }
            }
        }
        assertThat(String.join("\n", r.notes())).doesNotContain(admin);
    }

}
