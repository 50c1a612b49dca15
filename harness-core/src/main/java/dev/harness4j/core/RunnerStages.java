package dev.harness4j.core;

import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.run.AfterHarnessStage;
import dev.harness4j.core.internal.run.HarnessProcessStage;
import dev.harness4j.core.internal.run.RecordStage;
import dev.harness4j.core.internal.run.WorkspaceStage;
import dev.harness4j.core.pipeline.Key;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStageFactory;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.pipeline.StageSetup;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.stages.BranchPushStage;
import dev.harness4j.core.stages.GatewayStage;
import dev.harness4j.core.stages.LoginProbeStage;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.core.stages.PhaseReportStage;
import dev.harness4j.core.stages.SandboxStage;
import dev.harness4j.core.stages.ServedModelStage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/** Assembles a runner's chain of stages from its builder's settings: built-in, given, found. */
final class RunnerStages {
    private RunnerStages() {}

    /** The stages, outermost first; checks the combinations that cannot work. */
    static List<RunStage> assemble(RunnerOptions o) {
        Map<Slot, RunStage> builtIn = new EnumMap<>(Slot.class);
        builtIn.put(Slot.RECORD, new RecordStage());
        builtIn.put(Slot.WORKSPACE, new WorkspaceStage(o.keepWorkspace));
        builtIn.put(Slot.AFTER_HARNESS, new AfterHarnessStage());
        if (o.pushBranches) {
            builtIn.put(Slot.BRANCH_PUSH, o.push.build());
        }
        PhaseReports reports = o.phaseReports != null ? o.phaseReports
                : o.autonomyPreamble ? PhaseReports.DEFAULT : PhaseReports.GIT_ONLY;
        builtIn.put(Slot.PHASE_REPORT, PhaseReportStage.of(reports));
        if (o.requireServedModel != Requirement.OFF) {
            builtIn.put(Slot.SERVED_MODEL, ServedModelStage.of(o.requireServedModel));
        }
        builtIn.put(Slot.GATEWAY, GatewayStage.of(o.gateway));
        if (o.metering) {
            builtIn.put(Slot.METER, o.meter.build());
        }
        builtIn.put(Slot.SANDBOX, o.sandbox.build());
        if (o.loginProbe) {
            builtIn.put(Slot.LOGIN_PROBE, o.login.build());
        } else if (o.requireLogin != Requirement.OFF) {
            throw new IllegalStateException("requireLogin(" + o.requireLogin + ") needs the login probe; remove "
                    + "loginProbe(false) or set requireLogin(Requirement.OFF)");
        }
        List<RunStage> added = new ArrayList<>();
        for (RunStage s : o.stages) {
            if (isBuiltIn(s)) {
                builtIn.put(s.slot(), s); // configured by its builder: it replaces the default
            } else {
                added.add(s);
            }
        }
        o.without.forEach(builtIn::remove);
        if (o.discoverStages) {
            added.addAll(discover(o, builtIn));
        }
        added.removeIf(s -> o.without.contains(s.slot()));
        List<RunStage> chain = new ArrayList<>();
        for (Slot slot : Slot.values()) {
            if (builtIn.containsKey(slot)) {
                chain.add(builtIn.get(slot));
            }
            added.stream().filter(s -> s.slot() == slot).forEach(chain::add);
        }
        chain.add(new HarnessProcessStage());
        check(o, builtIn);
        return List.copyOf(chain);
    }

    private static boolean isBuiltIn(RunStage s) {
        return s instanceof MeterStage || s instanceof SandboxStage || s instanceof LoginProbeStage
                || s instanceof PhaseReportStage || s instanceof ServedModelStage || s instanceof GatewayStage
                || s instanceof BranchPushStage;
    }

    private static void check(RunnerOptions o, Map<Slot, RunStage> builtIn) {
        boolean metered = builtIn.containsKey(Slot.METER);
        if (!metered && o.stopAfterRateLimits != null && o.stopAfterRateLimits > 0) {
            throw new IllegalStateException("stopAfterRateLimits(" + o.stopAfterRateLimits + ") needs metering: the "
                    + "stop counts 429s on the wire; remove metering(false) or set stopAfterRateLimits(0)");
        }
        if (!metered && builtIn.get(Slot.SANDBOX) instanceof SandboxStage s && s.mode() != Sandbox.OFF
                && s.network() == SandboxNetwork.METER_ONLY) {
            throw new IllegalStateException("metering(false) leaves a confined run no route to its model: the sandbox's "
                    + "network METER_ONLY lets the agent reach only the meter. Keep metering on, or also set "
                    + "sandboxNetwork(SandboxNetwork.HOST) (the agent may then reach any host) or sandbox(Sandbox.OFF)");
        }
    }

    /** The stages the {@link RunStageFactory} services on the class path make for this runner. */
    private static List<RunStage> discover(RunnerOptions o, Map<Slot, RunStage> builtIn) {
        List<RunStage> found = new ArrayList<>();
        StageSetup setup = new StageSetup() {
            @Override
            public Path stateDir() {
                return o.stateDir;
            }

            @Override
            @SuppressWarnings("unchecked")
            public <T> Optional<T> setting(Key<T> key) {
                return Optional.ofNullable((T) o.settings.get(key));
            }

            @Override
            public boolean has(Slot slot) {
                return builtIn.containsKey(slot) || found.stream().anyMatch(s -> s.slot() == slot)
                        || o.stages.stream().anyMatch(s -> s.slot() == slot);
            }
        };
        for (RunStageFactory f : ServiceLoader.load(RunStageFactory.class)) {
            f.create(setup).ifPresent(s -> {
                if (s.slot() == Slot.HARNESS) {
                    throw new IllegalStateException("the stage " + s.name() + " made by " + f.getClass().getName()
                            + " takes the terminal slot HARNESS, which is the runner's own");
                }
                found.add(s);
            });
        }
        return found;
    }
}
