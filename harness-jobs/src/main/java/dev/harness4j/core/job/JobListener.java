package dev.harness4j.core.job;

/** Receives a job's events on the thread that runs the job; a listener that throws is logged and ignored. */
@FunctionalInterface
public interface JobListener {
    /** Listens to nothing. */
    JobListener NONE = event -> { };

    /** Called once per event, in order. */
    void onEvent(JobEvent event);
}
