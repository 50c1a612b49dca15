/** Checks of run trajectories ({@code trajectory.json}, ATIF v1.7) for tests. */
package dev.harness4j.testkit.trajectory;
