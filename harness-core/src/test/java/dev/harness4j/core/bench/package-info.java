/** Benchmark programs (classes with {@code main}) whose numbers are reported, not asserted. */
package dev.harness4j.core.bench;
