/** Runnable harness4j programs: the bench main job and embedding examples. */
package dev.harness4j.examples;
