package dev.harness4j.core.pipeline;

import dev.harness4j.api.Harness;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.workspace.Baseline;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * The fixed facts of one run, resolved before any stage runs: what was asked, which adapter and
 * CLI serve it, the provider as configured, the baseline. What stages change on the way in (the
 * prompt the harness gets, the provider URL the agent sees) lives in the {@link RunStore} under
 * {@link RunKeys}.
 *
 * @param runId the run's unique id
 * @param spec the run as the caller asked for it (its prompt unframed)
 * @param harness the adapter
 * @param executable the CLI's resolved executable
 * @param provider the resolved provider with its real endpoint and key, carrying the run's model
 * @param baseline the repository and commit the workspace starts from
 * @param stateDir the runner's state dir
 * @param startedAt when the run started
 * @param afterHarness the caller's step after the harness ({@link AfterHarness#NONE} for none)
 * @param metered whether the run's model traffic goes through a meter (the chain has one and the
 *     provider has an endpoint, not the CLI's own login)
 */
public record RunContext(String runId, RunSpec spec, Harness harness, Path executable, ResolvedProvider provider,
        Baseline baseline, Path stateDir, Instant startedAt, AfterHarness afterHarness, boolean metered) {

    /** Checks that every part is there. */
    public RunContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(afterHarness, "afterHarness");
    }

    /** The model the run asks for: the spec's, else the provider's default. */
    public String model() {
        return spec.model() != null ? spec.model() : provider.model();
    }
}
