/**
 * The {@code harness4j} command (picocli): {@code bench run | resume | summary | compare | report},
 * {@code harnesses list | check}, {@code providers list | check | refresh}. Exit codes: 0 success,
 * 1 something ran and did not succeed (a run that did not complete, a missing CLI, an unhealthy
 * provider), 2 bad input (nothing was started).
 */
package dev.harness4j.cli;
