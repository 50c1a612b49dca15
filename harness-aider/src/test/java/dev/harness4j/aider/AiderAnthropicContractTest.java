package dev.harness4j.aider;

import dev.harness4j.api.ApiStyle;
import java.util.Set;

/** The harness contract kit for aider on a provider that serves only Anthropic's API: LiteLLM's anthropic route. */
class AiderAnthropicContractTest extends AiderContractTest {
    @Override
    protected Set<ApiStyle> apiStyles() {
        return Set.of(ApiStyle.ANTHROPIC);
    }
}
