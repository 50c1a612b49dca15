package dev.harness4j.core.stages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.internal.run.ChainFixture;
import dev.harness4j.core.internal.run.WorkspaceStage;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunStage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent holds a per-run token, never the provider's key: a terminal stage calls the model
 * through the meter with the provider it was handed, in every way a key travels, and a real
 * upstream shows what arrived.
 */
class MeterCredentialTest {
    private static final String KEY = "sk-real-provider-key-meter-credential-0042";
    private static final String OK = "{\"model\":\"m\",\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1}}";
    private static final String GEMINI = "/v1beta/models/m:generateContent";

    @TempDir Path tmp;
    private ChainFixture fixture;
    private Upstream upstream;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicReference<ResolvedProvider> seen = new AtomicReference<>();
    private final List<HttpResponse<String>> answers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        upstream = new Upstream();
        for (String path : List.of("/v1/messages", "/v1/chat/completions", GEMINI)) {
            upstream.on(path, ex -> Upstream.send(ex, 200, "application/json", OK));
        }
        fixture = new ChainFixture(tmp).provider(new ResolvedProvider("local", EnumSet.of(ApiStyle.OPENAI),
                upstream.url("/v1"), Secret.of(KEY), AuthScheme.BEARER, "m"));
    }

    @AfterEach
    void tearDown() {
        fixture.close();
        upstream.close();
    }

    private HttpResponse<String> call(String url, String header, String value) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[]}"));
        if (header != null) {
            b.header(header, value);
        }
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Calls the model once per key scheme with the secret it was handed, then once with a made-up key. */
    private RunStage agent() {
        return ChainFixture.terminal(chain -> {
            ResolvedProvider p = chain.store().require(RunKeys.PROVIDER);
            seen.set(p);
            String token = p.secret().reveal();
            answers.add(call(p.v1Url() + "/messages", "x-api-key", token));
            answers.add(call(p.v1Url() + "/chat/completions", "authorization", "Bearer " + token));
            answers.add(call(p.rootUrl() + GEMINI, "x-goog-api-key", token));
            answers.add(call(p.rootUrl() + GEMINI + "?alt=sse&key=" + token, null, null));
            answers.add(call(p.v1Url() + "/chat/completions", "authorization", "Bearer sk-made-up-by-the-agent"));
            return HarnessResult.builder(Outcome.COMPLETED, "m").build();
        });
    }

    @Test
    void theUpstreamGetsTheRealKeyInEverySchemeWhileTheAgentOnlyEverHoldsTheRunsToken() throws Exception {
        ChainFixture.Ran ran;
        try (MeterStage meter = MeterStage.builder().build()) {
            ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meter, agent()));

            String token = seen.get().secret().reveal();
            assertThat(token).isNotEqualTo(KEY).startsWith("h4j-run-").doesNotContain(KEY);
            assertThat(seen.get().toString()).doesNotContain(KEY);
            assertThat(answers.subList(0, 4)).allSatisfy(a -> assertThat(a.statusCode()).isEqualTo(200));
            assertThat(upstream.received).hasSize(4); // the made-up key went nowhere
            assertThat(upstream.received.get(0).headers().get("x-api-key")).containsExactly(KEY);
            assertThat(upstream.received.get(1).headers().get("authorization")).containsExactly("Bearer " + KEY);
            assertThat(upstream.received.get(2).headers().get("x-goog-api-key")).containsExactly(KEY);
            assertThat(upstream.received.get(3).query()).isEqualTo("alt=sse&key=" + KEY);
            assertThat(upstream.received).allSatisfy(r -> assertThat(r.headers().toString() + r.query())
                    .doesNotContain(token));

            HttpResponse<String> wrong = answers.get(4);
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(wrong.body()).contains("not a live harness4j run's token").doesNotContain(KEY);
            assertThat(ran.store().require(RunKeys.SECRETS).values()).contains(token);
            assertThat(ran.outcome().sections()).containsEntry("credential", Map.of("held_by", "meter"));

            HttpResponse<String> dead = call(seen.get().v1Url() + "/chat/completions", "authorization",
                    "Bearer " + token);
            assertThat(dead.statusCode()).as("the token after its run ended").isEqualTo(401);
            assertThat(dead.body()).contains("not a live harness4j run's token");
            assertThat(upstream.received).hasSize(4);
        }
        try (Stream<Path> files = Files.walk(tmp)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString())
                        .doesNotContain(KEY);
            }
        }
    }

    @Test
    void aKeylessProviderStaysKeylessAndAnUnmeteredLoginSaysTheCredentialIsTheAgents() throws Exception {
        fixture.provider(new ResolvedProvider("local", EnumSet.of(ApiStyle.OPENAI), upstream.url("/v1"), null,
                AuthScheme.BEARER, "m"));
        try (MeterStage meter = MeterStage.builder().build()) {
            var ran = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meter,
                    ChainFixture.terminal(chain -> {
                        ResolvedProvider p = chain.store().require(RunKeys.PROVIDER);
                        seen.set(p);
                        answers.add(call(p.v1Url() + "/chat/completions", "authorization", "Bearer whatever"));
                        return HarnessResult.builder(Outcome.COMPLETED, "m").build();
                    })));

            assertThat(seen.get().secret()).isNull();
            assertThat(answers.get(0).statusCode()).isEqualTo(200);
            assertThat(upstream.received.get(0).headers().get("authorization")).containsExactly("Bearer whatever");
            assertThat(ran.outcome().sections()).containsEntry("credential", Map.of("held_by", "none"));

            fixture.provider(ResolvedProvider.cliLogin("claude-login", "m"));
            var login = fixture.run(ChainFixture.spec(), List.of(new WorkspaceStage(), meter, ChainFixture.completes()));
            assertThat(login.outcome().sections()).containsEntry("credential", Map.of("held_by", "agent environment"));
        }
    }
}
