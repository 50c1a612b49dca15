package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Classification rules over envelope fields; the parsing of real envelopes is tested in ClaudeInterpretTest. */
class ErrorClassifierTest {

    private static ResultEnvelope error(String subtype, Integer status, String text, String terminalReason) {
        return new ResultEnvelope(subtype, true, status, text, List.of(), terminalReason, 1, null,
                null, null, null, null, List.of(), null);
    }

    @Test
    void theSubtypesLimitsComeFirst() {
        assertThat(ErrorClassifier.classify(error("error_max_turns", null, null, null))).isEqualTo(Outcome.MAX_TURNS);
        assertThat(ErrorClassifier.classify(error("error_during_execution", null, null, "max_turns")))
                .isEqualTo(Outcome.MAX_TURNS);
        assertThat(ErrorClassifier.classify(error("error_max_budget_usd", null, null, null)))
                .isEqualTo(Outcome.BUDGET);
    }

    @Test
    void aContextOverflowIsNeverABadRequest() {
        assertThat(ErrorClassifier.classify(error("success", 400,
                "API Error: 400 prompt is too long: 210000 tokens > 200000 maximum", null)))
                .isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(ErrorClassifier.classify(error("success", null, "x", "prompt_too_long")))
                .isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(ErrorClassifier.classify(error("success", 413, "request too large", null)))
                .isEqualTo(Outcome.CONTEXT_OVERFLOW);
    }

    @Test
    void theHttpStatusDecidesTheClass() {
        assertThat(ErrorClassifier.classify(error("success", 429, "x", null))).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(ErrorClassifier.classify(error("success", 401, "x", null))).isEqualTo(Outcome.AUTH);
        assertThat(ErrorClassifier.classify(error("success", 403, "x", null))).isEqualTo(Outcome.AUTH);
        assertThat(ErrorClassifier.classify(error("success", 500, "x", null))).isEqualTo(Outcome.TRANSIENT);
        assertThat(ErrorClassifier.classify(error("success", 529, "Overloaded", null))).isEqualTo(Outcome.TRANSIENT);
        assertThat(ErrorClassifier.classify(error("success", 400, "invalid model", null)))
                .isEqualTo(Outcome.BAD_REQUEST);
    }

    @Test
    void withoutAStatusTheWordsDecide() {
        assertThat(ErrorClassifier.classify(error("success", null, "API Error: 401 Invalid API key · Please run /login",
                null))).isEqualTo(Outcome.AUTH);
        assertThat(ErrorClassifier.classify(error("success", null, "API Error: Request timed out.", null)))
                .isEqualTo(Outcome.TRANSIENT);
        assertThat(ErrorClassifier.classify(error("success", null, "Claude AI usage limit reached|1764432000", null)))
                .isEqualTo(Outcome.RATE_LIMITED);
        assertThat(ErrorClassifier.classify(error("error_during_execution", null, "something odd", null)))
                .isEqualTo(Outcome.ERROR);
    }
}
