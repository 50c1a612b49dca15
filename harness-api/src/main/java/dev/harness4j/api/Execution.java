package dev.harness4j.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What one harness process did: the input of {@link Harness#interpret(Execution)}.
 *
 * <p>Output is given as files (a run may print gigabytes); the helpers here read them with
 * bounded memory and replace invalid UTF-8 instead of failing.
 *
 * @param context the context the invocation was prepared from
 * @param invocation what was started
 * @param exitCode the process's exit code, or {@code null} when it never started or was killed
 *     before an exit code could be read
 * @param termination why it ended
 * @param stdout the file holding everything the process wrote to stdout
 * @param stderr the file holding everything the process wrote to stderr
 * @param changes what changed in the workspace
 * @param duration wall time from start to exit
 * @param startedAt when the process started, or {@code null} when not known
 * @param finishedAt when the process exited or was stopped, or {@code null} when not known; it
 *     dates what the process printed, e.g. a relative rate-limit wait
 */
public record Execution(
        HarnessContext context,
        Invocation invocation,
        Integer exitCode,
        Termination termination,
        Path stdout,
        Path stderr,
        GitChanges changes,
        Duration duration,
        Instant startedAt,
        Instant finishedAt) {

    /** The longest line the line helpers hand over, in chars (4 Mi); longer lines are cut. */
    public static final int MAX_LINE_CHARS = 4 * 1024 * 1024;

    /**
     * Checks that every part but the exit code is present.
     *
     * @param context the context the invocation was prepared from
     * @param invocation what was started
     * @param exitCode the process's exit code, or {@code null} when it never started or was killed
     *     before an exit code could be read
     * @param termination why it ended
     * @param stdout the file holding everything the process wrote to stdout
     * @param stderr the file holding everything the process wrote to stderr
     * @param changes what changed in the workspace
     * @param duration wall time from start to exit
     * @param startedAt when the process started, or {@code null} when not known
     * @param finishedAt when the process exited or was stopped, or {@code null} when not known
     * @throws IllegalArgumentException when {@code finishedAt} is before {@code startedAt}
     */
    public Execution {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(invocation, "invocation");
        Objects.requireNonNull(termination, "termination");
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(duration, "duration");
        if (startedAt != null && finishedAt != null && finishedAt.isBefore(startedAt)) {
            throw new IllegalArgumentException("finishedAt " + finishedAt + " is before startedAt " + startedAt);
        }
    }

    /**
     * An execution whose start is not given: it is {@code finishedAt - duration} when the end is
     * known, else {@code null}. Kept for adapters' tests written before the start was stored.
     *
     * @param context the context the invocation was prepared from
     * @param invocation what was started
     * @param exitCode the process's exit code, or {@code null}
     * @param termination why it ended
     * @param stdout the file holding everything the process wrote to stdout
     * @param stderr the file holding everything the process wrote to stderr
     * @param changes what changed in the workspace
     * @param duration wall time from start to exit
     * @param finishedAt when the process exited or was stopped, or {@code null} when not known
     */
    public Execution(HarnessContext context, Invocation invocation, Integer exitCode, Termination termination,
            Path stdout, Path stderr, GitChanges changes, Duration duration, Instant finishedAt) {
        this(context, invocation, exitCode, termination, stdout, stderr, changes, duration,
                finishedAt == null ? null : finishedAt.minus(duration), finishedAt);
    }

    /**
     * An execution whose end time is not known ({@code finishedAt} is {@code null}).
     *
     * @deprecated without its instants, what the process printed cannot be dated (a relative
     *     rate-limit wait comes out empty): use {@link #builder(HarnessContext, Invocation)}
     *
     * @param context the context the invocation was prepared from
     * @param invocation what was started
     * @param exitCode the process's exit code, or {@code null} when it never started or was killed
     *     before an exit code could be read
     * @param termination why it ended
     * @param stdout the file holding everything the process wrote to stdout
     * @param stderr the file holding everything the process wrote to stderr
     * @param changes what changed in the workspace
     * @param duration wall time from start to exit
     */
    @Deprecated
    public Execution(HarnessContext context, Invocation invocation, Integer exitCode, Termination termination,
            Path stdout, Path stderr, GitChanges changes, Duration duration) {
        this(context, invocation, exitCode, termination, stdout, stderr, changes, duration, null, null);
    }

    /**
     * Whether the process exited by itself with code 0.
     *
     * @return whether the process exited by itself with code 0
     */
    public boolean exitedCleanly() {
        return termination.kind() == Termination.Kind.EXITED && exitCode != null && exitCode == 0;
    }

    /**
     * Streams stdout line by line ({@code \r} stripped), whatever its size; a line longer than
     * {@link #MAX_LINE_CHARS} is cut to that length (the rest of it is skipped).
     *
     * @param action called with each line, in order, on the calling thread
     */
    public void forEachStdoutLine(Consumer<String> action) {
        forEachLine(stdout, action);
    }

    /**
     * The lines of stdout as a lazy stream ({@code \r} stripped, each cut at {@link
     * #MAX_LINE_CHARS}), for a reader that pulls, such as {@link Harness#trajectory}; the caller
     * closes the stream.
     *
     * @return the lines, in order; empty when nothing was printed
     */
    public java.util.stream.Stream<String> stdoutLines() {
        return CappedLines.of(stdout, MAX_LINE_CHARS);
    }

    /**
     * Streams stderr line by line ({@code \r} stripped), whatever its size.
     *
     * @param action called with each line, in order, on the calling thread
     */
    public void forEachStderrLine(Consumer<String> action) {
        forEachLine(stderr, action);
    }

    /**
     * The last {@code n} lines of stdout.
     *
     * @param n how many lines at most
     * @return up to {@code n} lines, oldest first; empty when {@code n <= 0} or nothing was printed
     */
    public List<String> stdoutTail(int n) {
        return tail(stdout, n);
    }

    /**
     * The last {@code n} lines of stderr.
     *
     * @param n how many lines at most
     * @return up to {@code n} lines, oldest first; empty when {@code n <= 0} or nothing was printed
     */
    public List<String> stderrTail(int n) {
        return tail(stderr, n);
    }

    /**
     * The last {@code maxBytes} of stdout as text (invalid UTF-8 replaced).
     *
     * @param maxBytes how many bytes from the end at most
     * @return the text, {@code \r} removed; empty when nothing was printed
     */
    public String stdoutTailText(int maxBytes) {
        return tailText(stdout, maxBytes);
    }

    /**
     * The end of stderr as text, at most {@code maxBytes} bytes, {@code \r} removed.
     *
     * @param maxBytes how many bytes from the end to read
     * @return the tail, possibly starting mid-line; empty when there is no stderr
     */
    public String stderrTailText(int maxBytes) {
        return tailText(stderr, maxBytes);
    }

    /**
     * A builder of an execution, for adapter tests: it exited with code 0 unless told otherwise,
     * changed nothing, and its instants are always set (it finished when {@code build()} is
     * called, one second after it started, unless given).
     *
     * <pre>{@code
     * Execution ex = Execution.builder(ctx, invocation).exitCode(1).stdout(out).stderr(err).build();
     * }</pre>
     *
     * @param context the context the invocation was prepared from
     * @param invocation what was started
     * @return a new builder
     */
    public static Builder builder(HarnessContext context, Invocation invocation) {
        return new Builder(context, invocation);
    }

    /** Builds an {@link Execution} with its instants defaulted; see {@link #builder}. */
    public static final class Builder {
        private final HarnessContext context;
        private final Invocation invocation;
        private Integer exitCode = 0;
        private Termination termination = Termination.exited();
        private Path stdout;
        private Path stderr;
        private GitChanges changes = GitChanges.none(GitChanges.NO_COMMIT);
        private Instant startedAt;
        private Instant finishedAt;

        private Builder(HarnessContext context, Invocation invocation) {
            this.context = Objects.requireNonNull(context, "context");
            this.invocation = Objects.requireNonNull(invocation, "invocation");
        }

        /**
         * Sets the exit code; default 0.
         *
         * @param v the exit code, or {@code null} when none could be read
         * @return this builder
         */
        public Builder exitCode(Integer v) { this.exitCode = v; return this; }
        /**
         * Sets how it ended; default exited.
         *
         * @param v the termination
         * @return this builder
         */
        public Builder termination(Termination v) { this.termination = Objects.requireNonNull(v, "termination"); return this; }
        /**
         * Sets the stdout file (required; it need not exist).
         *
         * @param v the file
         * @return this builder
         */
        public Builder stdout(Path v) { this.stdout = v; return this; }
        /**
         * Sets the stderr file (required; it need not exist).
         *
         * @param v the file
         * @return this builder
         */
        public Builder stderr(Path v) { this.stderr = v; return this; }
        /**
         * Sets what changed; default nothing.
         *
         * @param v the changes
         * @return this builder
         */
        public Builder changes(GitChanges v) { this.changes = Objects.requireNonNull(v, "changes"); return this; }
        /**
         * Sets when it started and finished; default one second before {@code build()}, and then.
         *
         * @param start when it started
         * @param end when it finished, not before {@code start}
         * @return this builder
         */
        public Builder times(Instant start, Instant end) {
            this.startedAt = Objects.requireNonNull(start, "start");
            this.finishedAt = Objects.requireNonNull(end, "end");
            return this;
        }

        /**
         * Builds the execution.
         *
         * @return the execution, its duration the time between its instants
         * @throws NullPointerException when stdout or stderr was not set
         */
        public Execution build() {
            Instant end = finishedAt != null ? finishedAt : Instant.now();
            Instant start = startedAt != null ? startedAt : end.minusSeconds(1);
            return new Execution(context, invocation, exitCode, termination, stdout, stderr, changes,
                    Duration.between(start, end), start, end);
        }
    }

    /**
     * An execution for tests of {@link Harness#interpret}: the process exited with {@code exitCode}
     * after one second, ending now, and changed nothing.
     *
     * @param context the context
     * @param invocation what was started
     * @param exitCode the exit code
     * @param stdout the stdout file (it need not exist)
     * @param stderr the stderr file (it need not exist)
     * @return the execution
     */
    public static Execution exited(HarnessContext context, Invocation invocation, int exitCode, Path stdout,
            Path stderr) {
        Instant end = Instant.now();
        return new Execution(context, invocation, exitCode, Termination.exited(), stdout, stderr,
                GitChanges.none(GitChanges.NO_COMMIT), Duration.ofSeconds(1), end.minusSeconds(1), end);
    }

    /**
     * A copy that started and finished at the given instants, its duration between them (for
     * tests that date what a process printed).
     *
     * @param start when the process started
     * @param end when it finished, not before {@code start}
     * @return the copy
     */
    public Execution withTimes(Instant start, Instant end) {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        return new Execution(context, invocation, exitCode, termination, stdout, stderr, changes,
                Duration.between(start, end), start, end);
    }

    /**
     * A copy with other changes.
     *
     * @param value the changes
     * @return the copy
     */
    public Execution withChanges(GitChanges value) {
        return new Execution(context, invocation, exitCode, termination, stdout, stderr, value, duration, startedAt,
                finishedAt);
    }

    /**
     * A copy with another termination (and no exit code unless it is {@code EXITED}).
     *
     * @param value the termination
     * @return the copy
     */
    public Execution withTermination(Termination value) {
        return new Execution(context, invocation, value.kind() == Termination.Kind.EXITED ? exitCode : null, value,
                stdout, stderr, changes, duration, startedAt, finishedAt);
    }

    private static void forEachLine(Path file, Consumer<String> action) {
        if (!Files.exists(file)) {
            return;
        }
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try (Reader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder), 64 * 1024)) {
            StringBuilder line = new StringBuilder();
            boolean cut = false;
            char[] buf = new char[8192];
            int n;
            while ((n = r.read(buf)) != -1) {
                for (int i = 0; i < n; i++) {
                    char c = buf[i];
                    if (c == '\n') {
                        action.accept(stripCr(line));
                        line.setLength(0);
                        cut = false;
                    } else if (line.length() < MAX_LINE_CHARS) {
                        line.append(c);
                    } else {
                        cut = true; // the rest of an over-long line is dropped: memory stays bounded
                    }
                }
            }
            if (line.length() > 0 || cut) {
                action.accept(stripCr(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
    }

    private static String stripCr(StringBuilder line) {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
            end--;
        }
        return line.substring(0, end);
    }

    private static List<String> tail(Path file, int n) {
        if (n <= 0) {
            return List.of();
        }
        Deque<String> lines = new ArrayDeque<>();
        for (String line : tailText(file, 256 * 1024).split("\n", -1)) {
            lines.addLast(line);
            if (lines.size() > n + 1) {
                lines.removeFirst();
            }
        }
        List<String> out = new ArrayList<>(lines);
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        while (out.size() > n) {
            out.remove(0);
        }
        return out;
    }

    private static String tailText(Path file, int maxBytes) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            int n = (int) Math.min(len, Math.max(0, maxBytes));
            byte[] buf = new byte[n];
            raf.seek(len - n);
            raf.readFully(buf);
            return new String(buf, StandardCharsets.UTF_8).replace("\r", "");
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
    }
}
