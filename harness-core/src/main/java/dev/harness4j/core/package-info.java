/**
 * harness4j's services: one run end to end ({@link dev.harness4j.core.HarnessRunner}, whose
 * result is a {@link dev.harness4j.core.RunRecord}), discovery of adapters
 * ({@link dev.harness4j.core.HarnessRegistry}), installed checks
 * ({@link dev.harness4j.core.Installations}), and, in sub-packages, process supervision,
 * workspaces, capture, providers, the queue, benches and jobs.
 */
package dev.harness4j.core;
