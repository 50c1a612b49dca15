package dev.harness4j.miniswe;

import dev.harness4j.api.ApiStyle;
import java.util.Set;

/** The harness contract kit for mini-swe-agent on a provider that serves only Gemini's API: LiteLLM's gemini route. */
class MiniSweAgentGeminiContractTest extends MiniSweAgentContractTest {
    @Override
    protected Set<ApiStyle> apiStyles() {
        return Set.of(ApiStyle.GEMINI);
    }
}
