package dev.harness4j.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The LiteLLM-style gateway stub: keys, spend logs in delayed batches, readiness. */
class GatewayStubTest {
    private static final String MASTER = "sk-master";
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private ScriptedModelServer server;
    private Http http;

    @BeforeEach
    void setUp() {
        server = ScriptedModelServer.builder().spendLogDelay(Duration.ofSeconds(2)).start().requireKey(MASTER);
        server.script("m", Scenario.builder().usage(40, 7, 0, 0).build());
        http = new Http(server.baseUrl());
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private String generateKey() throws Exception {
        JsonNode r = http.postJson("/key/generate", "{\"duration\":\"600s\",\"models\":[\"m\"],\"metadata\":{\"run\":\"r1\"}}",
                "authorization", "Bearer " + MASTER);
        assertThat(r.path("expires").asText()).isNotBlank();
        assertThat(r.path("metadata").path("run").asText()).isEqualTo("r1");
        return r.path("key").asText();
    }

    private void call(String key) throws Exception {
        http.postJson("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "authorization", "Bearer " + key);
    }

    private JsonNode spend(String key) throws IOException, InterruptedException {
        HttpResponse<String> r = http.get("/spend/logs?api_key=" + key, "authorization", "Bearer " + MASTER);
        assertThat(r.statusCode()).isEqualTo(200);
        return Http.json(r.body());
    }

    private JsonNode pollSpend(String key, Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            JsonNode rows = spend(key);
            if (until.test(rows)) {
                return rows;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("spend logs did not reach the expected state within " + DEADLINE + ": " + rows);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    @Test
    void readinessNeedsNoKey() throws Exception {
        HttpResponse<String> r = http.get("/health/readiness");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Http.json(r.body()).path("status").asText()).isEqualTo("healthy");
    }

    @Test
    void adminEndpointsNeedTheMasterKey() throws Exception {
        assertThat(http.post("/key/generate", "{}").statusCode()).isEqualTo(401);
        assertThat(http.post("/key/generate", "{}", "authorization", "Bearer sk-other").statusCode()).isEqualTo(401);
        assertThat(http.get("/spend/logs?api_key=x").statusCode()).isEqualTo(401);
    }

    @Test
    void spendRowsOfAGeneratedKeyAppearTogetherAfterTheDelayAndLaterCallsFormTheNextBatch() throws Exception {
        String key = generateKey();
        String other = generateKey();

        call(key);
        call(key);
        call(other);
        JsonNode early = spend(key);
        JsonNode firstBatch = pollSpend(key, rows -> rows.size() > 0);
        call(key);
        JsonNode secondBatch = pollSpend(key, rows -> rows.size() > 2);

        assertThat(early).as("rows are not visible before the batch is flushed").isEmpty();
        assertThat(firstBatch).hasSize(2).allSatisfy(row -> {
            assertThat(row.path("prompt_tokens").asLong()).isEqualTo(40);
            assertThat(row.path("completion_tokens").asLong()).isEqualTo(7);
            assertThat(row.path("total_tokens").asLong()).isEqualTo(47);
            assertThat(row.path("model").asText()).isEqualTo("m");
            assertThat(row.path("spend").asDouble()).isPositive();
            assertThat(row.path("request_id").asText()).isNotBlank();
            assertThat(row.path("startTime").asText()).isNotBlank();
        });
        assertThat(secondBatch).hasSize(3);
        assertThat(pollSpend(other, rows -> rows.size() > 0)).hasSize(1);
    }

    @Test
    void aDeletedKeyIsRejected() throws Exception {
        String key = generateKey();
        call(key);

        JsonNode deleted = http.postJson("/key/delete", "{\"keys\":[\"" + key + "\"]}", "authorization", "Bearer " + MASTER);

        assertThat(deleted.path("deleted_keys").get(0).asText()).isEqualTo(key);
        assertThat(http.post("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[]}", "authorization", "Bearer " + key)
                .statusCode()).isEqualTo(401);
    }
}
