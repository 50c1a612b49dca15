package dev.harness4j.api.support;

import dev.harness4j.api.Harness;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads a run's trajectory lazily from a CLI's output lines, for {@link Harness#trajectory}: a
 * subclass is handed one line at a time ({@link #line}) and {@link #emit emits} each step it
 * completes; at the end of the output {@link #end} emits what is still open. {@link #steps}
 * streams the steps, reading only as far as its consumer asks, so a long transcript is never held
 * in memory; closing the stream closes the lines.
 *
 * <pre>{@code
 * final class MyTrajectory extends StepReader {
 *     protected void line(String line) { ... emit(TrajectoryStep.agent(model, text)); ... }
 * }
 * return Optional.of(new MyTrajectory().steps(execution.stdoutLines()));
 * }</pre>
 *
 * <p>One reader reads one output, once, on one thread.
 */
public abstract class StepReader {
    private final ArrayDeque<TrajectoryStep> ready = new ArrayDeque<>();
    private boolean used;
    private boolean stopped;

    /**
     * Reads one line of the output.
     *
     * @param line the line as printed, without its line break
     */
    protected abstract void line(String line);

    /** Called once after the last line (or after {@link #stop}): emit the step still open, if any. */
    protected void end() {
    }

    /**
     * Hands a completed step to the stream, in order.
     *
     * @param step the step
     */
    protected final void emit(TrajectoryStep step) {
        ready.add(Objects.requireNonNull(step, "step"));
    }

    /** Reads no further line: the output's end for this reader (e.g. after the CLI's final event). */
    protected final void stop() {
        stopped = true;
    }

    /**
     * The steps read from {@code lines}, lazily; closing the returned stream closes {@code lines}.
     *
     * @param lines the output's lines
     * @return the steps, in order
     * @throws IllegalStateException if this reader has read an output already
     */
    public final Stream<TrajectoryStep> steps(Stream<String> lines) {
        Objects.requireNonNull(lines, "lines");
        if (used) {
            throw new IllegalStateException("a StepReader reads one output once: make a new one per output");
        }
        used = true;
        Iterator<String> it = lines.iterator();
        Iterator<TrajectoryStep> steps = new Iterator<>() {
            private boolean ended;

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && !ended) {
                    if (!stopped && it.hasNext()) {
                        line(it.next());
                    } else {
                        ended = true;
                        end();
                    }
                }
                return !ready.isEmpty();
            }

            @Override
            public TrajectoryStep next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(steps, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(lines::close);
    }
}
