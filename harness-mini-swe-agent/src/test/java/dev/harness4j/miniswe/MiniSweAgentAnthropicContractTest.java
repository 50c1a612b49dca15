package dev.harness4j.miniswe;

import dev.harness4j.api.ApiStyle;
import java.util.Set;

/** The harness contract kit for mini-swe-agent on a provider that serves only Anthropic's API: LiteLLM's anthropic route. */
class MiniSweAgentAnthropicContractTest extends MiniSweAgentContractTest {
    @Override
    protected Set<ApiStyle> apiStyles() {
        return Set.of(ApiStyle.ANTHROPIC);
    }
}
