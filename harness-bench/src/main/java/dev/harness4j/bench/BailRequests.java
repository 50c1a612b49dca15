package dev.harness4j.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Bail requests from another process, as files in {@code <state-dir>/bail-requests/}: {@code
 * harness4j serve} writes {@code run-<run id>} or {@code bench-<bench id>} ({@link #requestRun},
 * {@link #requestBench}), and the process that runs the bench polls the directory ({@link #watch},
 * every {@link #POLL_INTERVAL}) and calls the runner's bail for a run of its own, or stops its
 * queue with a bail for its bench. A handled request is deleted; a request older than the watch
 * (left by a bench that ended) is deleted unread, so it never stops a later {@code bench resume}.
 *
 * <pre>{@code
 * BailRequests.requestRun(stateDir, "r-20261203T064104-cb866a3a70"); // from any process
 * }</pre>
 */
public final class BailRequests implements AutoCloseable {
    /** The directory of the requests in the state dir. */
    public static final String DIR = "bail-requests";
    /** How often {@link #watch} looks: 500 ms. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final String RUN = "run-";
    private static final String BENCH = "bench-";

    private final Path dir;
    private final String benchId;
    private final Predicate<String> bailRun;
    private final Runnable bailBench;
    private final FileTime since;
    private final ScheduledExecutorService poller;

    private BailRequests(Path dir, String benchId, Predicate<String> bailRun, Runnable bailBench) {
        this.dir = dir;
        this.benchId = benchId;
        this.bailRun = bailRun;
        this.bailBench = bailBench;
        this.since = FileTime.from(Instant.now().minusSeconds(1)); // file times may be coarser than the clock
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "harness4j-bail-requests");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::look, 0, POLL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks the process running run {@code runId} to bail it; returns the request's file. */
    public static Path requestRun(Path stateDir, String runId) throws IOException {
        return write(stateDir, RUN + checked(runId, "runId"));
    }

    /** Asks the process running bench {@code benchId} to stop its queue, bailing what runs; returns the request's file. */
    public static Path requestBench(Path stateDir, String benchId) throws IOException {
        return write(stateDir, BENCH + checked(benchId, "benchId"));
    }

    /**
     * Watches {@code stateDir}'s requests until closed: {@code bailRun} is called with the run id of
     * each run request (true: handled, the request is deleted; false: not a run of this process,
     * yet); {@code bailBench} once for a request naming {@code benchId} (none when {@code null}).
     */
    public static BailRequests watch(Path stateDir, String benchId, Predicate<String> bailRun, Runnable bailBench) {
        return new BailRequests(Objects.requireNonNull(stateDir, "stateDir").resolve(DIR), benchId,
                Objects.requireNonNull(bailRun, "bailRun"), Objects.requireNonNull(bailBench, "bailBench"));
    }

    private static String checked(String id, String what) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException(what + " must match " + ID.pattern() + ", was " + id);
        }
        return id;
    }

    private static Path write(Path stateDir, String name) throws IOException {
        Path dir = Files.createDirectories(stateDir.resolve(DIR));
        Path tmp = Files.createTempFile(dir, ".req", ".tmp");
        Files.writeString(tmp, Instant.now() + "\n");
        return Files.move(tmp, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private void look() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "{" + RUN + "," + BENCH + "}*")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (Files.getLastModifiedTime(f).compareTo(since) < 0) {
                    Files.deleteIfExists(f); // from before this bench: not for it
                } else if (name.startsWith(RUN) && bailRun.test(name.substring(RUN.length()))) {
                    Files.deleteIfExists(f);
                } else if (name.startsWith(BENCH) && name.substring(BENCH.length()).equals(benchId)) {
                    Files.deleteIfExists(f);
                    bailBench.run();
                }
            }
        } catch (IOException | RuntimeException e) {
            // a request that vanished (another bench took it) or an unreadable directory: look again later
        }
    }

    /** Stops watching; idempotent. */
    @Override
    public void close() {
        poller.shutdownNow();
    }
}
