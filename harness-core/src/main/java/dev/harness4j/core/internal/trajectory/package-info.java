/**
 * A run's trajectory as {@code trajectory.json} (ATIF v1.7): written streaming from the adapter's
 * events or from the wire (the meter's records and, with {@code recordBodies}, its bodies).
 */
package dev.harness4j.core.internal.trajectory;
