package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** fail, stall, dropConnection, answerAs and concurrent turns, over the JDK HttpClient. */
class FailuresTest extends ProtocolTest {
    private static final String ANTHROPIC = "{\"model\":\"m\",\"max_tokens\":10,\"stream\":%s,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}";
    private static final String CHAT = "{\"model\":\"m\",\"stream\":%s,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static String anthropic(boolean stream) {
        return String.format(ANTHROPIC, stream, "hi");
    }

    @Test
    void rateLimitFailureCarriesRetryAfterAndTheRetryPlaysTheNextStep() throws Exception {
        server.script("m", Scenario.builder().failRateLimited(Duration.ofSeconds(2)).say("after retry").build());

        HttpResponse<String> first = http.post("/v1/messages", anthropic(true));
        JsonNode retry = http.postJson("/v1/messages", anthropic(false));

        assertThat(first.statusCode()).isEqualTo(429);
        assertThat(first.headers().firstValue("retry-after")).hasValue("2");
        assertThat(Http.json(first.body()).path("error").path("type").asText()).isEqualTo("rate_limit_error");
        assertThat(retry.path("content").get(0).path("text").asText()).isEqualTo("after retry");
    }

    @Test
    void failuresUseEachProvidersErrorShapeAndType() throws Exception {
        server.script("m", Scenario.builder().fail(401, "bad key").fail(500, "boom").failOverloaded()
                .fail(500, "boom").build());

        HttpResponse<String> a401 = http.post("/v1/messages", anthropic(false));
        HttpResponse<String> a500 = http.post("/v1/messages", anthropic(false));
        HttpResponse<String> a529 = http.post("/v1/messages", anthropic(false));
        HttpResponse<String> o500 = http.post("/v1/chat/completions", String.format(CHAT, false));

        assertThat(a401.statusCode()).isEqualTo(401);
        assertThat(Http.json(a401.body()).path("error").path("type").asText()).isEqualTo("authentication_error");
        assertThat(Http.json(a500.body()).path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(a529.statusCode()).isEqualTo(529);
        assertThat(Http.json(a529.body()).path("error").path("type").asText()).isEqualTo("overloaded_error");
        assertThat(o500.statusCode()).isEqualTo(500);
        assertThat(Http.json(o500.body()).path("error").path("message").asText()).isEqualTo("boom");
        assertThat(Http.json(o500.body()).path("error").path("type").asText()).isEqualTo("server_error");
    }

    @Test
    void failWithBodySendsTheBodyAsItIs() throws Exception {
        server.script("m", Scenario.builder().failWithBody(503, "{\"detail\":\"gateway down\"}").build());

        HttpResponse<String> r = http.post("/v1/messages", anthropic(false));

        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"detail\":\"gateway down\"}");
    }

    @Test
    void stallSendsNothingThenClosesTheConnection() throws Exception {
        server.script("m", Scenario.builder().stall(Duration.ofMillis(300)).say("later").build());
        long start = System.nanoTime();

        assertThatThrownBy(() -> http.post("/v1/messages", anthropic(true))).isInstanceOf(IOException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(server.requests().get(0).status()).isEqualTo(-1);
        assertThat(http.postJson("/v1/messages", anthropic(false)).path("content").get(0).path("text").asText())
                .isEqualTo("later");
    }

    @Test
    void closingTheServerEndsAStallAtOnce() throws Exception {
        server.script("m", Scenario.builder().stall(Duration.ofMinutes(10)).build());
        CompletableFuture<HttpResponse<String>> pending = CompletableFuture.supplyAsync(() -> {
            try {
                return http.post("/v1/messages", anthropic(true));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.played("m") == 0 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(server.played("m")).isEqualTo(1);

        server.close();

        assertThatThrownBy(() -> pending.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @Test
    void dropConnectionCutsAStreamedAnswerMidway() throws Exception {
        server.script("m", Scenario.builder().dropConnection().say("whole").build());

        assertThatThrownBy(() -> http.post("/v1/messages", anthropic(true))).isInstanceOf(IOException.class);
        assertThat(server.requests().get(0).status()).isEqualTo(200);
        assertThat(http.postJson("/v1/messages", anthropic(false)).path("content").get(0).path("text").asText())
                .isEqualTo("whole");
    }

    @Test
    void dropConnectionCutsANonStreamedAnswerMidway() throws Exception {
        server.script("m", Scenario.builder().dropConnection().build());

        assertThatThrownBy(() -> http.post("/v1/chat/completions", String.format(CHAT, false)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void answerAsReportsAnotherModelForOneStepOrForAllTurns() throws Exception {
        server.script("m", Scenario.builder().say("one").answerAs("other-model").say("two").build());
        server.script("n", Scenario.builder().answerAs("n-sub").build());

        JsonNode one = http.postJson("/v1/messages", anthropic(false));
        JsonNode two = http.postJson("/v1/messages", anthropic(false));
        JsonNode n = http.postJson("/v1/chat/completions", "{\"model\":\"n\",\"messages\":[]}");

        assertThat(one.path("model").asText()).isEqualTo("other-model");
        assertThat(two.path("model").asText()).isEqualTo("m");
        assertThat(n.path("model").asText()).isEqualTo("n-sub");
    }

    @Test
    void concurrentTurnsEachPlayADifferentStep() throws Exception {
        int n = 24;
        Scenario.Builder b = Scenario.builder();
        for (int i = 0; i < n; i++) {
            b.say("step " + i);
        }
        server.script("m", b.build());
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = String.format(ANTHROPIC, i % 2 == 0, "q" + i);
            boolean stream = i % 2 == 0;
            futures.add(CompletableFuture.supplyAsync(() -> {
                try {
                    HttpResponse<String> r = http.post("/v1/messages", body);
                    if (stream) {
                        return Http.events(r.body()).stream()
                                .filter(e -> "content_block_delta".equals(e.event()))
                                .map(e -> e.data().path("delta").path("text").asText()).collect(Collectors.joining());
                    }
                    return Http.json(r.body()).path("content").get(0).path("text").asText();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        Set<String> texts = new java.util.HashSet<>();
        for (CompletableFuture<String> f : futures) {
            try {
                texts.add(f.get(30, TimeUnit.SECONDS));
            } catch (TimeoutException e) {
                throw new AssertionError("a concurrent request did not finish within 30 s", e);
            }
        }

        assertThat(texts).hasSize(n).allSatisfy(t -> assertThat(t).startsWith("step "));
        assertThat(server.played("m")).isEqualTo(n);
    }
}
