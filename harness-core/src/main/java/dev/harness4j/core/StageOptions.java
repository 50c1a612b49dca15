package dev.harness4j.core;

import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.PriceList;
import dev.harness4j.core.stages.BranchPushStage;
import dev.harness4j.core.stages.GatewayStage;
import dev.harness4j.core.stages.LoginProbeStage;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.core.stages.PhaseReportStage;
import dev.harness4j.core.stages.SandboxStage;
import dev.harness4j.core.stages.ServedModelStage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The built-in stages' settings as the runner's builder took them before stages had builders,
 * kept for one release: each is deprecated, configure the stage's own builder and give it to
 * {@link RunnerOptions#stage} instead. The base of {@link HarnessRunner.Builder}'s settings.
 */
abstract class StageOptions {
    // the built-in stages' settings, as the runner's builder took them before stages had builders
    boolean pushBranches;
    final BranchPushStage.Builder push = BranchPushStage.builder();
    PhaseReports phaseReports;
    boolean loginProbe = true;
    final LoginProbeStage.Builder login = LoginProbeStage.builder();
    Requirement requireLogin = Requirement.OFF;
    boolean metering = true;
    final MeterStage.Builder meter = MeterStage.builder();
    Integer stopAfterRateLimits;
    Requirement requireServedModel = Requirement.OFF;
    GatewayOptions gateway = GatewayOptions.defaults();
    Sandbox sandboxMode = Sandbox.AUTO;
    SandboxNetwork sandboxNetwork = SandboxNetwork.METER_ONLY;
    final SandboxStage.Builder sandbox = SandboxStage.builder();

    StageOptions() {}

    final HarnessRunner.Builder self() {
        return (HarnessRunner.Builder) this;
    }

    /**
     * Whether each result is pushed to a branch of the baseline's remote; default false.
     *
     * @deprecated give {@code stage(BranchPushStage.builder().build())}
     */
    @Deprecated
    public HarnessRunner.Builder pushBranches(boolean value) {
        this.pushBranches = value;
        return self();
    }

    /**
     * How long a result branch push may take; default {@link HarnessRunner#DEFAULT_PUSH_TIMEOUT}.
     *
     * @deprecated use {@code BranchPushStage.builder().timeout(..)}
     */
    @Deprecated
    public HarnessRunner.Builder pushTimeout(Duration value) {
        push.timeout(Checks.positive(value, "pushTimeout"));
        return self();
    }

    /**
     * How each run's phase report is found; default {@link PhaseReports#DEFAULT}, or {@link
     * PhaseReports#GIT_ONLY} when {@link RunnerOptions#autonomyPreamble(boolean)} is off.
     *
     * @deprecated give {@code stage(PhaseReportStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder phaseReports(PhaseReports value) {
        this.phaseReports = Objects.requireNonNull(value, "phaseReports");
        return self();
    }

    /**
     * Whether the adapter's login probe runs before the main process; default true.
     *
     * @deprecated use {@code without(Slot.LOGIN_PROBE)}
     */
    @Deprecated
    public HarnessRunner.Builder loginProbe(boolean value) {
        this.loginProbe = value;
        return self();
    }

    /**
     * How long a login probe's clear answer is reused; default {@link HarnessRunner#DEFAULT_LOGIN_CACHE_TTL}.
     *
     * @deprecated use {@code LoginProbeStage.builder().cacheTtl(..)}
     */
    @Deprecated
    public HarnessRunner.Builder loginCacheTtl(Duration value) {
        login.cacheTtl(value);
        return self();
    }

    /**
     * The login probe's max runtime; default {@link HarnessRunner#DEFAULT_LOGIN_TIMEOUT}.
     *
     * @deprecated use {@code LoginProbeStage.builder().timeout(..)}
     */
    @Deprecated
    public HarnessRunner.Builder loginTimeout(Duration value) {
        login.timeout(value);
        return self();
    }

    /**
     * Whether the CLI must be logged in before its run starts; default {@link Requirement#OFF}.
     *
     * @deprecated use {@code LoginProbeStage.builder().require(..)}
     */
    @Deprecated
    public HarnessRunner.Builder requireLogin(Requirement value) {
        this.requireLogin = Objects.requireNonNull(value, "requireLogin");
        login.require(value);
        return self();
    }

    /**
     * Whether each run's model traffic goes through the metering proxy; default true.
     *
     * @deprecated use {@code without(Slot.METER)}, or configure {@code MeterStage}
     */
    @Deprecated
    public HarnessRunner.Builder metering(boolean value) {
        this.metering = value;
        return self();
    }

    /**
     * Whether metered runs keep their model calls' bodies; default false.
     *
     * @deprecated use {@code MeterStage.builder().recordBodies(..)}
     */
    @Deprecated
    public HarnessRunner.Builder recordBodies(boolean value) {
        meter.recordBodies(value);
        return self();
    }

    /**
     * How many 429s in a row stop a metered run; unset, each adapter's own.
     *
     * @deprecated use {@code MeterStage.builder().stopAfterRateLimits(..)}
     */
    @Deprecated
    public HarnessRunner.Builder stopAfterRateLimits(int value) {
        meter.stopAfterRateLimits(value);
        this.stopAfterRateLimits = value;
        return self();
    }

    /**
     * Prices of models, for a cost from metered tokens.
     *
     * @deprecated use {@code MeterStage.builder().prices(..)}
     */
    @Deprecated
    public HarnessRunner.Builder prices(PriceList value) {
        meter.prices(value);
        return self();
    }

    /**
     * Whether a run must be served by the model it asked for; default {@link Requirement#OFF}.
     *
     * @deprecated give {@code stage(ServedModelStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder requireServedModel(Requirement value) {
        this.requireServedModel = Objects.requireNonNull(value, "requireServedModel");
        return self();
    }

    /**
     * How runs on a provider with a gateway are accounted; default {@link GatewayOptions#defaults()}.
     *
     * @deprecated give {@code stage(GatewayStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder gateway(GatewayOptions value) {
        this.gateway = Objects.requireNonNull(value, "gateway");
        return self();
    }

    /**
     * Whether each harness process is confined in a bubblewrap sandbox; default {@link Sandbox#AUTO}.
     *
     * @deprecated use {@code SandboxStage.builder().mode(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandbox(Sandbox value) {
        this.sandboxMode = Objects.requireNonNull(value, "sandbox");
        sandbox.mode(value);
        return self();
    }

    /**
     * What a confined run may reach; default {@link SandboxNetwork#METER_ONLY}.
     *
     * @deprecated use {@code SandboxStage.builder().network(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandboxNetwork(SandboxNetwork value) {
        this.sandboxNetwork = Objects.requireNonNull(value, "sandboxNetwork");
        sandbox.network(value);
        return self();
    }

    /**
     * The {@code bwrap} executable; default {@link Bubblewrap#DEFAULT_BWRAP}.
     *
     * @deprecated use {@code SandboxStage.builder().bwrap(..)}
     */
    @Deprecated
    public HarnessRunner.Builder bwrapExecutable(Path value) {
        sandbox.bwrap(value);
        return self();
    }

    /**
     * A directory a confined run may read even when under the real HOME.
     *
     * @deprecated use {@code SandboxStage.builder().readOnly(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandboxReadOnly(Path dir) {
        sandbox.readOnly(dir);
        return self();
    }
}
