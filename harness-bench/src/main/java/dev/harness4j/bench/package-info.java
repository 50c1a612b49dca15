/**
 * Bench matrices and their reports: a {@link dev.harness4j.bench.BenchPlan} (harness ×
 * model × provider × task, validated before anything is queued), the task
 * prompts as written (the runner frames them with its {@link dev.harness4j.core.AutonomyPreamble}), the {@link
 * dev.harness4j.bench.BenchSummary} read from every run's {@code meta.json} with its
 * table, JSON, CSV and self-contained HTML report, and the {@link
 * dev.harness4j.bench.ProgressLine} shown while a matrix runs.
 */
package dev.harness4j.bench;
