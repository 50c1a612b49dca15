package dev.harness4j.testkit;

import dev.harness4j.api.Harness;
import dev.harness4j.core.Installations;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the real harness CLIs for tests. A missing CLI skips the test with the install command;
 * with {@code HARNESS4J_REQUIRE_CLIS=1} (set by CI) it fails the test instead.
 */
public final class Clis {
    /** The environment variable that turns a missing CLI from a skip into a failure. */
    public static final String REQUIRE_ENV = "HARNESS4J_REQUIRE_CLIS";

    private Clis() {}

    /** The harness's executable, or skip/fail the calling test when it is not installed. */
    public static Path require(Harness harness) {
        Optional<Path> exe = Installations.defaults().locate(harness);
        if (exe.isEmpty()) {
            String msg = harness.id() + " CLI '" + harness.installInfo().binary() + "' is not installed; run: "
                    + "bash scripts/install-clis.sh (or " + harness.installInfo().installHint() + ")";
            if ("1".equals(System.getenv(REQUIRE_ENV)) || "true".equalsIgnoreCase(System.getenv(REQUIRE_ENV))) {
                Assertions.fail(msg + " [" + REQUIRE_ENV + " is set, so this is a failure]");
            }
            Assumptions.abort(msg);
        }
        return exe.get();
    }
}
