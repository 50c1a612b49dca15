package dev.harness4j.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Follows a running run's output files ({@link LiveRunPage#outputs}) for one event stream: each
 * complete line written since the last look is a {@code line} event ({@code {"stream", "text"}}),
 * a change of the meter's figures a {@code meter} event, a change of the trajectory steps so far
 * ({@link LiveSteps}) a {@code steps} event ({@code {"steps": [text…]}}), and the run's result appearing (its
 * {@code runs/<run id>/io} directory gone, its result directory there) the {@code done} event
 * that ends the stream. It reads; it never writes.
 */
final class LiveTail {
    /** Receives one event. */
    interface Sink {
        void send(String event, String data) throws IOException;
    }

    private final LiveState state;
    private final String runId;
    private final Sink sink;
    private final LiveSteps steps;
    private final String harness;

    /**
     * @param steps what reads the steps so far
     * @param harness the run's harness id (its adapter parses the output), or {@code null} when unknown
     */
    LiveTail(LiveState state, String runId, Sink sink, LiveSteps steps, String harness) {
        this.state = state;
        this.runId = runId;
        this.sink = sink;
        this.steps = steps;
        this.harness = harness;
    }

    void run(BooleanSupplier stop, Duration poll, Duration keepAlive) throws IOException {
        Path io = state.liveIo(runId).orElse(null); // null: on another machine, only its result is seen
        List<Path> files = io == null ? List.of() : LiveRunPage.outputs(io);
        long[] offsets = new long[files.size()];
        StringBuilder[] partial = {new StringBuilder(), new StringBuilder()};
        String meter = null;
        List<String> shown = List.of();
        long quiet = 0;
        while (!stop.getAsBoolean()) {
            boolean sent = false;
            for (int i = 0; i < files.size(); i++) {
                sent |= follow(files.get(i), i == 0 ? "stdout" : "stderr", offsets, i, partial[i]);
            }
            if (io != null && Files.isDirectory(io)) {
                String now = LiveRunPage.meter(io, null);
                boolean metered = !now.equals(meter);
                if (metered) {
                    meter = now;
                    sink.send("meter", now);
                }
                if (sent || metered) {
                    List<String> so = steps.steps(harness, io);
                    if (!so.equals(shown) && !so.isEmpty()) {
                        shown = so;
                        sink.send("steps", LiveSteps.json(so));
                    }
                }
                sent |= metered;
            } else if (state.resultDir(runId).isPresent()) {
                sink.send("done", runId);
                return;
            }
            quiet = sent ? 0 : quiet + poll.toMillis();
            if (quiet >= keepAlive.toMillis()) {
                sink.send("keep-alive", "");
                quiet = 0;
            }
            LiveServer.sleep();
        }
    }

    /** Sends the complete lines written to {@code file} since {@code offsets[i]}; whether any was sent. */
    private boolean follow(Path file, String stream, long[] offsets, int i, StringBuilder partial) throws IOException {
        byte[] chunk;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            if (length <= offsets[i]) {
                return false;
            }
            chunk = new byte[(int) Math.min(length - offsets[i], 1 << 20)];
            f.seek(offsets[i]);
            f.readFully(chunk);
            offsets[i] += chunk.length;
        } catch (IOException e) {
            return false; // not there yet, or gone with the run's directory
        }
        partial.append(new String(chunk, StandardCharsets.UTF_8));
        boolean sent = false;
        int nl;
        while ((nl = partial.indexOf("\n")) >= 0) {
            sink.send("line", LiveServer.json(Map.of("stream", stream, "text", partial.substring(0, nl))));
            partial.delete(0, nl + 1);
            sent = true;
        }
        return sent;
    }
}
