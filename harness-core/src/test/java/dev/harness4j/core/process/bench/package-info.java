/** Benchmark programs for process supervision; run them with {@code main}, they are not tests. */
package dev.harness4j.core.process.bench;
