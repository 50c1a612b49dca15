/**
 * The reference harnesses a bench checks its verifiers with: {@link
 * dev.harness4j.bench.reference.NopHarness nop} (does nothing) and {@link
 * dev.harness4j.bench.reference.OracleHarness oracle} (runs the task's reference solution). Both
 * are ordinary adapters, registered for {@link java.util.ServiceLoader}, that run {@code sh} in the
 * workspace under the runner's supervision and sandbox; they call no model, so they need no
 * provider, are never metered, and their results are references, never on a leaderboard.
 */
package dev.harness4j.bench.reference;
