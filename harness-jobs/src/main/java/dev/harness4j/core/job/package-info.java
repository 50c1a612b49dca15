/**
 * Durable multi-phase jobs: {@link dev.harness4j.core.job.JobRunner} runs a {@link
 * dev.harness4j.core.job.JobPlan} of {@link dev.harness4j.core.job.PhaseSpec}s in one workspace
 * that survives JVM restarts, with checkpoints, events, quota pauses and resume.
 */
package dev.harness4j.core.job;
