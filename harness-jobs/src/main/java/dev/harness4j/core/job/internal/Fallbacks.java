package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.PhaseSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Switches a phase to its next fallback provider, with the switch in the checkpoint and the events. */
final class Fallbacks {
    private static final Logger log = LoggerFactory.getLogger(Fallbacks.class);

    private Fallbacks() {}

    /** Whether the phase has a fallback it has not used yet. */
    static boolean left(PhaseBook p, PhaseSpec spec) {
        return p.fallbacksUsed < spec.fallbacks().size();
    }

    /** Moves the phase to its next fallback ({@link #left} must hold); {@code why} ends the event's detail. */
    static void switchNext(JobBook book, PhaseBook p, PhaseSpec spec, String why) {
        PhaseSpec.Fallback fb = spec.fallbacks().get(p.fallbacksUsed);
        String from = p.provider() + (p.model() != null ? "/" + p.model() : "");
        book.update(() -> {
            p.provider = fb.provider();
            p.model = fb.model() != null ? fb.model() : p.model;
            p.fallbacksUsed++;
        });
        book.event(JobEvent.Kind.PROVIDER_SWITCH, p.id(), null, null, "from " + from + " to " + p.provider()
                + (p.model() != null ? "/" + p.model() : "") + ": " + why);
        log.info("job {}: phase {} switches from {} to {}: {}", book.jobId(), p.id(), from, p.provider(), why);
    }
}
