/**
 * The built-in stages a user configures, each with its own builder, given to {@code
 * HarnessRunner.builder().stage(..)} in place of the runner's default one of its slot: {@link
 * dev.harness4j.core.stages.MeterStage}, {@link dev.harness4j.core.stages.SandboxStage}, {@link
 * dev.harness4j.core.stages.LoginProbeStage}, {@link dev.harness4j.core.stages.PhaseReportStage},
 * {@link dev.harness4j.core.stages.ServedModelStage}, {@link dev.harness4j.core.stages.GatewayStage}
 * and {@link dev.harness4j.core.stages.BranchPushStage}.
 */
package dev.harness4j.core.stages;
