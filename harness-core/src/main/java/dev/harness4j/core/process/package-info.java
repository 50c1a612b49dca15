/**
 * Process supervision for one harness run: start an {@link dev.harness4j.api.Invocation} in its
 * own session, drain and tail its output, guard it (inactivity, max runtime, bail) and stop its
 * whole process tree so that nothing carrying the run's {@link
 * dev.harness4j.core.process.RunMarker marker} survives; optionally confined in a bubblewrap
 * sandbox ({@link dev.harness4j.core.process.Confinement}, {@link
 * dev.harness4j.core.internal.process.Bubblewrap}) whose network reaches only the meter ({@link
 * dev.harness4j.core.internal.process.MeterRelay}). A process starts from a built environment,
 * never the runner's whole one ({@link dev.harness4j.core.process.RunEnvironment}: an allowlist
 * plus what the caller passes explicitly).
 *
 * <pre>{@code
 * try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build()) {
 *     ProcessOutcome outcome = supervisor.run(request);
 * }
 * }</pre>
 */
package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

import dev.harness4j.core.internal.process.MeterRelay;
