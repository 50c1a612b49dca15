package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

/**
 * Whether a runner confines each harness process in a bubblewrap sandbox ({@link Bubblewrap}):
 * of the host only the system (read-only, {@code /etc} with its secrets masked), the run's paths (the
 * workspace and scratch dir read-write; the baseline and the tools dir read-only), an empty HOME
 * of its own, a private {@code /tmp}, no capability, its own PID namespace, and (by default) no
 * network but the runner's metering proxy.
 */
public enum Sandbox {
    /** Confine when bubblewrap works on this machine (probed once per runner), else run unconfined and say why in meta.json. */
    AUTO,
    /** Confine, or refuse to run (before anything starts) when bubblewrap cannot run here. */
    REQUIRED,
    /** Never confine. */
    OFF
}
