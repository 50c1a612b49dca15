package dev.harness4j.core.stages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.internal.run.ChainFixture;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.run.WorkspaceStage;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessOutcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meter stage in front of a terminal fake that makes one real model call through the URL it was given. */
class MeterStageTest {
    private static final String KEY = "sk-meter-stage-test-1234567890";
    private static final String CHAT_OK = "{\"model\":\"m\",\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":10}}";

    @TempDir Path tmp;
    private ChainFixture fixture;
    private Upstream upstream;
    private final AtomicReference<String> seenUrl = new AtomicReference<>();

    @BeforeEach
    void setUp() throws Exception {
        upstream = new Upstream();
        upstream.on("/v1/chat/completions", ex -> Upstream.send(ex, 200, "application/json", CHAT_OK));
        fixture = new ChainFixture(tmp).provider(new ResolvedProvider("local", EnumSet.of(ApiStyle.OPENAI),
                upstream.url("/v1"), Secret.of(KEY), AuthScheme.BEARER, "m"));
    }

    @AfterEach
    void tearDown() {
        fixture.close();
        upstream.close();
    }

    /** Calls the provider as the agent sees it, once, then "exits 1" with nothing said (an opaque CLI's error). */
    private RunStage callingTerminal() {
        return new RunStage() {
            @Override
            public Slot slot() {
                return Slot.HARNESS;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                ResolvedProvider p = chain.store().require(RunKeys.PROVIDER);
                seenUrl.set(p.baseUrl().toString());
                try {
                    HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(p.v1Url() + "/chat/completions"))
                            .header("authorization", "Bearer " + p.secret().reveal())
                            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[]}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                Instant now = Instant.now();
                return chain.outcome().process(new ProcessOutcome(0, new Termination(Termination.Kind.EXITED, null), now,
                        now, 1)).result(HarnessResult.builder(Outcome.COMPLETED, "m").build());
            }
        };
    }

    @Test
    void theAgentSeesTheMetersLoopbackUrlAndTheRunGetsTheWiresTokens() throws Exception {
        try (MeterStage meter = MeterStage.builder().build()) {
            var ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meter, callingTerminal()));

            assertThat(seenUrl.get()).startsWith("http://127.0.0.1:" + ran.store().require(RunKeys.METER_PORT) + "/");
            assertThat(seenUrl.get()).doesNotContain(upstream.url("").toString());
            TokenUsage t = ran.outcome().result().tokens();
            assertThat(t.source()).isEqualTo(TokenUsage.Source.METERED);
            assertThat(t.input()).isEqualTo(1000L);
            assertThat(t.output()).isEqualTo(10L);
            assertThat(ran.outcome().meter().modelRequests()).isEqualTo(1);
            assertThat(ran.store().get(CoreKeys.REQUESTS)).isPresent();
        }
    }

    @Test
    void aProviderThatIsTheClisOwnLoginIsNotMeteredAndSaysSo() throws Exception {
        fixture.provider(ResolvedProvider.cliLogin("claude-login", "m"));
        try (MeterStage meter = MeterStage.builder().build()) {
            var ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meter, ChainFixture.completes()));

            assertThat(ran.store().get(RunKeys.METER_PORT)).isEmpty();
            assertThat(ran.outcome().notes()).anySatisfy(n -> assertThat(n).startsWith("the wire was not metered"));
        }
    }
}
