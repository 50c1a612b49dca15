package dev.harness4j.bench;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The live progress of a matrix run: done / running / pending, elapsed time, and the age of the
 * last output line any running harness printed. On a terminal it redraws one line in place every
 * {@link #DEFAULT_REFRESH}; elsewhere (a pipe, a CI log: {@code System.console() == null}) it
 * prints one plain line per start and end. Listens to the runner's events ({@link
 * HarnessListener}) and to the queue processor ({@link QueueProcessor.Listener}); thread-safe.
 *
 * <pre>{@code
 * try (ProgressLine progress = ProgressLine.forConsole(entries.size())) {
 *     HarnessRunner runner = HarnessRunner.builder().listener(progress)...build();
 *     QueueProcessor.builder(queue, executor).listener(progress).build().runAll();
 * }
 * }</pre>
 */
public final class ProgressLine implements HarnessListener, QueueProcessor.Listener, AutoCloseable {
    /** How often the terminal line is redrawn: 1 s. */
    public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(1);

    private final PrintStream out;
    private final boolean tty;
    private final Clock clock;
    private final Instant startedAt;
    private final Map<String, String> running = new LinkedHashMap<>(); // runId -> label
    private final ScheduledExecutorService redraw;
    private int total;
    private int done;
    private Instant lastOutputAt;
    private boolean closed;

    /**
     * @param total how many entries the matrix runs
     * @param out where to print
     * @param tty whether {@code out} is a terminal (redraw in place) or not (plain lines)
     */
    public ProgressLine(int total, PrintStream out, boolean tty, Clock clock) {
        if (total < 0) {
            throw new IllegalArgumentException("total must be >= 0, was " + total);
        }
        this.total = total;
        this.out = Objects.requireNonNull(out, "out");
        this.tty = tty;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.startedAt = clock.instant();
        if (tty) {
            redraw = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "harness4j-progress");
                t.setDaemon(true);
                return t;
            });
            redraw.scheduleAtFixedRate(this::draw, 0, DEFAULT_REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            redraw = null;
        }
    }

    /** On {@code System.out}, redrawing in place when a console is attached. */
    public static ProgressLine forConsole(int total) {
        return new ProgressLine(total, System.out, System.console() != null, Clock.systemUTC());
    }

    @Override
    public void onEvent(HarnessEvent event) {
        if (event instanceof HarnessEvent.OutputLine line) {
            synchronized (this) {
                lastOutputAt = line.at();
            }
        }
    }

    @Override
    public void started(QueueEntry entry) {
        String label;
        synchronized (this) {
            label = entry.spec().harness() + " / " + (entry.spec().model() == null ? "(default)" : entry.spec().model());
            running.put(entry.runId(), label);
        }
        if (!tty) {
            plain("started " + label + " (attempt " + entry.attempts() + ")");
        }
    }

    @Override
    public void finished(QueueEntry after, HarnessResult result) {
        String label;
        synchronized (this) {
            label = running.remove(after.runId());
            if (after.state() != QueueEntry.State.QUEUED) {
                done++;
            }
        }
        if (!tty) {
            String outcome = result == null ? "runner failure" : result.outcome().wireName();
            plain((after.state() == QueueEntry.State.QUEUED ? "will retry " : "finished ") + label + ": " + outcome
                    + (after.state() == QueueEntry.State.QUEUED && after.notBefore() != null
                            ? " (not before " + after.notBefore() + ")" : ""));
        }
    }

    /** Updates the total, e.g. when entries are added while the matrix runs. */
    public synchronized void total(int value) {
        this.total = value;
    }

    /** The progress text, without the line control characters. */
    public synchronized String text() {
        Instant now = clock.instant();
        int pending = Math.max(0, total - done - running.size());
        StringBuilder sb = new StringBuilder("[bench] done ").append(done).append('/').append(total)
                .append(" · running ").append(running.size()).append(" · pending ").append(pending)
                .append(" · ").append(clockText(Duration.between(startedAt, now))).append(" elapsed");
        if (!running.isEmpty()) {
            sb.append(" · last output ").append(lastOutputAt == null ? "none yet"
                    : Math.max(0, Duration.between(lastOutputAt, now).toSeconds()) + "s ago");
            sb.append(" · ").append(String.join(", ", running.values()));
        }
        return sb.toString();
    }

    private void draw() {
        String text = text();
        synchronized (out) {
            out.print("\r\033[K" + text);
            out.flush();
        }
    }

    private void plain(String what) {
        String text = text();
        synchronized (out) {
            out.println(text.substring(0, text.indexOf(" · last output") < 0 ? text.length() : text.indexOf(" · last output"))
                    + " · " + what);
            out.flush();
        }
    }

    static String clockText(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%02d:%02d", s / 60, s % 60);
    }

    /** Stops redrawing and ends the terminal line; idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (redraw != null) {
            redraw.shutdownNow();
            draw();
            synchronized (out) {
                out.println();
                out.flush();
            }
        }
    }
}
