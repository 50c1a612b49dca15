package dev.harness4j.core;

/**
 * Hears about each finished run once its result is written ({@link RunRecord#resultDir()} holds
 * {@code meta.json}, {@code trajectory.json} and the rest): for exporters such as harness-otel's
 * OpenTelemetry spans. Called on the run's thread after the result is stored; must be
 * thread-safe; an exception thrown here is logged and ignored (the run's record stands).
 *
 * <pre>{@code
 * HarnessRunner runner = HarnessRunner.builder()
 *         .observer(record -> System.out.println(record.runId() + " -> " + record.resultDir()))
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface RunObserver {
    /**
     * A run finished and its result is written.
     *
     * @param record the run's record
     */
    void runFinished(RunRecord record);
}
