package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.PhaseSpec;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks a phase's provider before the phase starts and, while it is unhealthy, switches to the
 * phase's next fallback (each failed check and each switch an event, the switch in the
 * checkpoint). A provider that is the CLI's own login has no endpoint and is not checked; nor is
 * one the {@link Providers} do not know (a custom resolver's).
 *
 * <p>When no provider left is healthy the phase fails at once with every provider named and why:
 * an outage that outlasts every fallback is no quota with a known reset, so waiting for it could
 * last forever; the job's checkpoint, events and repository stay, and the plan can be run again.
 */
final class HealthGate {
    private final Providers providers;

    /** @param providers what to check against, already with the job's timeout; {@code null}: check nothing */
    HealthGate(Providers providers) {
        this.providers = providers;
    }

    /** A gate for this plan's setting: checks nothing when either is off. */
    static HealthGate of(Providers providers, Duration timeout) {
        return new HealthGate(providers == null || timeout == null ? null : providers.withHealthTimeout(timeout));
    }

    /**
     * Checks the phase's provider, switching to fallbacks while it is unhealthy.
     *
     * @return {@code null} when the phase may start on {@code p.provider()}, else why none can
     */
    String pass(JobBook book, PhaseBook p, PhaseSpec spec) {
        if (providers == null) {
            return null;
        }
        List<String> unhealthy = new ArrayList<>();
        while (true) {
            String why = problem(p.provider());
            if (why == null) {
                return null;
            }
            unhealthy.add(p.provider() + " (" + why + ")");
            book.event(JobEvent.Kind.HEALTH_CHECK, p.id(), null, null, p.provider() + " is unhealthy: " + why);
            if (!Fallbacks.left(p, spec)) {
                return "no healthy provider: " + String.join("; ", unhealthy)
                        + (spec.fallbacks().isEmpty() ? "; the phase has no fallback provider" : "; no fallback left")
                        + " (switch the check off with the plan's health_check: false when the endpoint has no"
                        + " health route)";
            }
            Fallbacks.switchNext(book, p, spec, p.provider() + " failed its health check: " + why);
        }
    }

    /** Why the provider is unhealthy, or {@code null} when healthy or not checked. */
    private String problem(String provider) {
        Optional<ProviderConfig> c = providers.config(provider);
        if (c.isEmpty() || c.get().cliLogin()) {
            return null;
        }
        HealthCheck h = providers.health(provider);
        if (h.healthy()) {
            return null;
        }
        return h.endpoint() + ": " + h.detail();
    }
}
