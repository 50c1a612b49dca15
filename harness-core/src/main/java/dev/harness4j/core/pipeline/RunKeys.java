package dev.harness4j.core.pipeline;

import dev.harness4j.api.ResolvedProvider;
import java.nio.file.Path;

/**
 * The keys the built-in stages publish in a run's {@link RunStore}, for stages inside them to
 * read (a user's stage too).
 */
public final class RunKeys {
    private RunKeys() {}

    /**
     * The prompt the harness gets, as framed so far: the caller's task with the autonomy preamble
     * (when on), then what stages add (the phase-report contract). Always present.
     */
    public static final Key<String> PROMPT = Key.named("prompt");

    /**
     * The provider as the agent will see it: the configured one, then a gateway's per-run key,
     * then the meter's loopback URL. Always present.
     */
    public static final Key<ResolvedProvider> PROVIDER = Key.named("provider");

    /** The run's secrets: every value is redacted from what the run writes. Always present. */
    public static final Key<RunSecrets> SECRETS = Key.named("secrets");

    /** The run's checkout (absolute); published by the workspace stage. */
    public static final Key<Path> WORKSPACE = Key.named("workspace");

    /** The run's scratch dir outside the checkout (config, state, HOME); published by the workspace stage. */
    public static final Key<Path> SCRATCH_DIR = Key.named("scratch-dir");

    /**
     * The run's io dir, where the harness's output and the meter's records go before they are
     * copied into the result; published by the workspace stage.
     */
    public static final Key<Path> IO_DIR = Key.named("io-dir");

    /** The loopback port of the meter, which a confined run must be able to reach; published by the meter. */
    public static final Key<Integer> METER_PORT = Key.named("meter-port");
}
