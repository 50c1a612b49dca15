package dev.harness4j.cli;

import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.stages.MeterStage;
import picocli.CommandLine.Option;

/**
 * When the meter stops a run whose endpoint keeps failing, for the commands that run agents:
 * {@code bench run}, {@code job run}, {@code worker}. Unset, the meter's defaults hold (a refused
 * key stops at once, 5 failing requests in a row stop, each adapter's own 429 limit).
 */
final class WireStopOptions {
    @Option(names = "--stop-after-rate-limits", paramLabel = "N",
            description = "stop a run after N rate-limited answers in a row (0: never; default: the adapter's own)")
    Integer rateLimits;

    @Option(names = "--stop-after-server-errors", paramLabel = "N",
            description = "stop a run after N model requests in a row failed with 5xx or no answer (0: never; default 5)")
    Integer serverErrors;

    @Option(names = "--no-stop-on-auth-failure", negatable = false,
            description = "let a run go on after its key is refused (default: the first 401/403 stops it, outcome auth)")
    boolean keepGoingOnAuthFailure;

    /** The builder with a meter configured from these options (the default meter when none is given). */
    HarnessRunner.Builder apply(HarnessRunner.Builder b) {
        if (rateLimits == null && serverErrors == null && !keepGoingOnAuthFailure) {
            return b;
        }
        MeterStage.Builder m = MeterStage.builder().stopOnAuthFailure(!keepGoingOnAuthFailure);
        if (rateLimits != null) {
            m.stopAfterRateLimits(rateLimits);
        }
        if (serverErrors != null) {
            m.stopAfterServerErrors(serverErrors);
        }
        return b.stage(m.build());
    }
}
