package dev.harness4j.core.job.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The pause and cancel requests for a job being run by this JVM: a request bails the phase's run
 * going on (through the runner's guard) and wakes a quota wait. Thread-safe.
 */
public final class JobControl {
    /** What the user asked. */
    public enum Request { PAUSE, CANCEL }

    private final Consumer<String> bail;
    private Request request;
    private String runningRun;

    /** @param bail stops a run by id (the runner's {@code bail}) */
    public JobControl(Consumer<String> bail) {
        this.bail = bail;
    }

    /** Asks for a pause or a cancel; a cancel wins over a pause. */
    public void request(Request r) {
        String run;
        synchronized (this) {
            if (request != Request.CANCEL) {
                request = r;
            }
            run = runningRun;
            notifyAll();
        }
        if (run != null) {
            bail.accept(run);
        }
    }

    /** The request made, or null. */
    public synchronized Request requested() {
        return request;
    }

    /** Marks a run as going on (bailed by a request), or none with null; bails it at once when a request came first. */
    void running(String runId) {
        boolean bailNow;
        synchronized (this) {
            runningRun = runId;
            bailNow = runId != null && request != null;
        }
        if (bailNow) {
            bail.accept(runId);
        }
    }

    /** Waits until {@code until} or a request, whichever comes first. */
    Request awaitUntil(Instant until) throws InterruptedException {
        synchronized (this) {
            while (request == null) {
                long ms = Duration.between(Instant.now(), until).toMillis();
                if (ms <= 0) {
                    break;
                }
                wait(Math.min(ms, 1000));
            }
            return request;
        }
    }
}
