package dev.harness4j.aider;

import dev.harness4j.api.ApiStyle;
import java.util.Set;

/** The harness contract kit for aider on a provider that serves only Gemini's API: LiteLLM's gemini route. */
class AiderGeminiContractTest extends AiderContractTest {
    @Override
    protected Set<ApiStyle> apiStyles() {
        return Set.of(ApiStyle.GEMINI);
    }
}
