package dev.harness4j.api;

/**
 * What a sandboxed run may reach on the network: a runner's default, or one run's
 * ({@link RunSpec#sandboxNetwork()}). Applies only when the runner confines runs.
 */
public enum SandboxNetwork {
    /** A network namespace with only loopback; the metering proxy is relayed into it, nothing else leaves. */
    METER_ONLY,
    /** The host's network, for tasks that need it (package installs); the file system is still confined. */
    HOST
}
