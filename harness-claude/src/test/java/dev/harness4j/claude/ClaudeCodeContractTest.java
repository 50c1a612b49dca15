package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Harness;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.RecordedRequest;
import java.util.List;
import java.util.Map;

/**
 * The harness contract kit run for ClaudeCodeHarness: offline checks, and three real runs of its
 * CLI. The failing run also checks that a refused key is {@code auth} with nothing measured, so no
 * other test runs that scenario again.
 */
class ClaudeCodeContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new ClaudeCodeHarness();
    }

    @Override
    protected Map<String, String> options() {
        return Map.of(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0"); // the failing run answers at once
    }

    /** Was ClaudeCodeEndToEndTest.aRefusedKeyIsAuth. */
    @Override
    protected void checkFailing(RunRecord run, List<RecordedRequest> requests) throws Exception {
        JsonNode meta = new ObjectMapper().readTree(run.metaFile().toFile());
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("auth");
        assertThat(meta.path("reason").asText()).contains("401");
        // the envelope says 0 tokens and $0, but nothing answered: unmeasured, not 0
        assertThat(meta.path("tokens").path("source").isNull()).as(meta.toPrettyString()).isTrue();
        assertThat(meta.path("tokens").path("input").isNull()).isTrue();
        assertThat(meta.path("cost").isNull()).isTrue();
    }
}
