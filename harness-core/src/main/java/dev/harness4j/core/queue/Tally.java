package dev.harness4j.core.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts a {@link QueueProcessor}'s attempts by how they ended, for its {@link QueueProcessor.Summary}. Thread-safe. */
final class Tally {
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger retried = new AtomicInteger();
    private final AtomicInteger interrupted = new AtomicInteger();
    private final List<String> unrecorded = new ArrayList<>();

    void started() {
        started.incrementAndGet();
    }

    /** Counts an attempt by the entry's state after it: done, failed, queued again (a retry) or interrupted. */
    void ended(QueueEntry after) {
        switch (after.state()) {
            case DONE -> done.incrementAndGet();
            case FAILED -> failed.incrementAndGet();
            case QUEUED -> retried.incrementAndGet();
            case INTERRUPTED -> interrupted.incrementAndGet();
            default -> { }
        }
    }

    /** Counts an attempt whose end could not be written to the queue. */
    synchronized void unrecorded(String entryId) {
        unrecorded.add(entryId);
    }

    synchronized QueueProcessor.Summary summary(boolean stopped) {
        return new QueueProcessor.Summary(started.get(), done.get(), failed.get(), retried.get(), interrupted.get(),
                stopped, unrecorded);
    }
}
