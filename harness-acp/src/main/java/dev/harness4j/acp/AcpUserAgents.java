package dev.harness4j.acp;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessSource;
import java.nio.file.Path;
import java.util.List;

/**
 * The user's ACP agents: one {@code acp:<id>} harness per row of {@code
 * <stateDir>/}{@value AcpAgents#USER_RELATIVE_PATH} ({@link AcpAgents#user}), found by a runner's
 * default registry through {@link java.util.ServiceLoader}. A malformed table adds none and its
 * error (file, row, field) is repeated when one of its ids is asked for.
 */
public final class AcpUserAgents implements HarnessSource {
    /** For {@link java.util.ServiceLoader}. */
    public AcpUserAgents() {}

    @Override
    public List<Harness> harnesses(Path stateDir) {
        return AcpAgents.user(stateDir).values().stream().map(a -> (Harness) new AcpHarness(a)).toList();
    }
}
