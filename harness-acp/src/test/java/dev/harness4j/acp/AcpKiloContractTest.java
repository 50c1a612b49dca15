package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;
import java.util.Set;

/** The harness contract kit run for acp:kilo: offline checks, and three real runs of {@code kilo acp}. */
class AcpKiloContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new AcpKiloHarness();
    }

    @Override
    protected Set<ApiStyle> apiStyles() {
        return Set.of(ApiStyle.OPENAI);
    }
}
