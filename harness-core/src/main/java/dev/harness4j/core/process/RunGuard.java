package dev.harness4j.core.process;

import dev.harness4j.api.Limits;
import dev.harness4j.api.Termination;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decides when one run must be stopped: no new output (and no model request) within the
 * inactivity timeout, the max runtime exceeded, or a stop requested from another thread (bail,
 * shutdown, a budget the metering proxy saw passed). The first reason
 * wins. Thread-safe: output threads report activity, any thread may request a stop, the run's
 * thread waits in {@link #await()}.
 */
final class RunGuard {
    /** How long {@link #await()} sleeps at most without a deadline, as a safety net. */
    static final Duration MAX_WAIT = Duration.ofSeconds(1);

    private final Limits limits;
    private final long startNanos;
    private volatile long lastActivityNanos;
    private final AtomicReference<Termination> stop = new AtomicReference<>();
    private final Object monitor = new Object();
    private boolean woken;

    RunGuard(Limits limits) {
        this.limits = limits;
        this.startNanos = System.nanoTime();
        this.lastActivityNanos = startNanos;
    }

    /** A new output line that differs from the previous one arrived, or the run made a model request. */
    void activity() {
        lastActivityNanos = System.nanoTime();
    }

    /** What {@link #seal} leaves: the process has exited, no stop can be decided any more. */
    private static final Termination SEALED = new Termination(Termination.Kind.EXITED, "exited");

    /** Asks the run to stop; false when a stop was already decided or the process has exited ({@link #seal}). */
    boolean request(Termination termination) {
        boolean first = stop.compareAndSet(null, termination);
        wake();
        return first;
    }

    /**
     * Called once the process was seen to exit by itself: from now on {@link #request} refuses.
     *
     * @return a stop requested before the seal (it raced the exit and is honoured), or null
     */
    Termination seal() {
        if (stop.compareAndSet(null, SEALED)) {
            return null;
        }
        Termination t = stop.get();
        return t == SEALED ? null : t;
    }

    /** Wakes {@link #await()} (the process exited, or a stop was requested). */
    void wake() {
        synchronized (monitor) {
            woken = true;
            monitor.notifyAll();
        }
    }

    /** The stop decided so far, checking the limits against the clock first; null to go on. */
    Termination check() {
        long now = System.nanoTime();
        if (limits.maxRuntime() != null && now - startNanos >= limits.maxRuntime().toNanos()) {
            stop.compareAndSet(null, new Termination(Termination.Kind.MAX_RUNTIME,
                    "exceeded max runtime " + seconds(limits.maxRuntime()) + " s"));
        }
        if (limits.inactivityTimeout() != null && now - lastActivityNanos >= limits.inactivityTimeout().toNanos()) {
            stop.compareAndSet(null, new Termination(Termination.Kind.INACTIVITY_TIMEOUT,
                    "no new output within " + seconds(limits.inactivityTimeout()) + " s"));
        }
        return stop.get();
    }

    /** Blocks until woken or the next deadline could have passed. */
    void await() throws InterruptedException {
        long wait = MAX_WAIT.toNanos();
        long now = System.nanoTime();
        if (limits.maxRuntime() != null) {
            wait = Math.min(wait, startNanos + limits.maxRuntime().toNanos() - now);
        }
        if (limits.inactivityTimeout() != null) {
            wait = Math.min(wait, lastActivityNanos + limits.inactivityTimeout().toNanos() - now);
        }
        synchronized (monitor) {
            if (!woken && wait > 0) {
                TimeUnit.NANOSECONDS.timedWait(monitor, wait);
            }
            woken = false;
        }
    }

    /** A duration in seconds as people write it: {@code 30}, {@code 0.5}. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString();
    }
}
