/**
 * harness4j's services: one run end to end ({@link dev.harness4j.core.HarnessRunner}, whose
 * result is a {@link dev.harness4j.core.RunRecord}), results found by task, harness, provider
 * and model ({@link dev.harness4j.core.ResultIndex}), discovery of adapters
 * ({@link dev.harness4j.core.HarnessRegistry}), installed checks
 * ({@link dev.harness4j.core.Installations}), and, in sub-packages, process supervision,
 * providers and the queue. Benches live in harness-bench.
 */
package dev.harness4j.core;
