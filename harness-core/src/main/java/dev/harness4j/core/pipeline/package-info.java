/**
 * A run as a chain of stages: {@link dev.harness4j.core.pipeline.RunStage} (one concern of a
 * run, wrapping the rest), {@link dev.harness4j.core.pipeline.RunChain} (a stage's view of the
 * run), the typed per-run {@link dev.harness4j.core.pipeline.RunStore} and the
 * {@link dev.harness4j.core.pipeline.RunOutcome} the stages amend on the way out. The built-in
 * stages are in {@code dev.harness4j.core.stages}; {@code docs/ARCHITECTURE.md} shows their order
 * and what each reads and publishes.
 */
package dev.harness4j.core.pipeline;
