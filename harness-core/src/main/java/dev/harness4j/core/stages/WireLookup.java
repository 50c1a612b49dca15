package dev.harness4j.core.stages;

import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds harness-meter's {@link WireStages} and says, once per JVM, when it is not there. */
final class WireLookup {
    private static final Logger log = LoggerFactory.getLogger(WireLookup.class);

    /** The dependency that meters runs. */
    static final String ARTIFACT = "dev.harness4j:harness-meter";
    /** A metered run's note when harness-meter is missing. */
    static final String UNMETERED = "unmetered: harness-meter is not on the class path; add " + ARTIFACT
            + " to measure tokens and cost on the wire";

    // the only static state: the missing jar is a fact of the JVM's class path, said once for all runners
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private WireLookup() {}

    /** The first {@link WireStages} on the class path (or module path), else empty. */
    static Optional<WireStages> find() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        Iterator<WireStages> it = ServiceLoader.load(WireStages.class, cl != null ? cl : WireLookup.class.getClassLoader())
                .iterator();
        if (it.hasNext()) {
            return Optional.of(it.next());
        }
        if (cl != null && cl != WireLookup.class.getClassLoader()) {
            it = ServiceLoader.load(WireStages.class, WireLookup.class.getClassLoader()).iterator();
            if (it.hasNext()) {
                return Optional.of(it.next());
            }
        }
        return Optional.empty();
    }

    /** Logs, the first time in this JVM, that runs are not metered and what to add. */
    static void warnMissing() {
        if (WARNED.compareAndSet(false, true)) {
            log.warn("runs are not metered and gateway spend is not settled: harness-meter is not on the class path; "
                    + "add the {} dependency to measure tokens and cost on the wire", ARTIFACT);
        }
    }
}
