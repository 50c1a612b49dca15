package dev.harness4j.core.internal.process;

import dev.harness4j.core.queue.Owner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outside half of the meter relay: a Unix socket (bound into each sandbox) whose every
 * connection is forwarded to {@code 127.0.0.1:<port>}, the metering proxy. Daemon threads; two
 * per open connection. Closing it closes the socket and every open connection.
 *
 * <p>Its dir ({@code <tmp>/h4j-relay*}) holds the socket and an {@code owner} record (pid,
 * process start time, host: {@link Owner}), so that a runner started after a {@code kill -9}
 * sweeps a dead owner's relay at once ({@link #sweepStale}).
 */
public final class MeterRelay implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MeterRelay.class);
    private static final int BUFFER = 64 * 1024;
    private static final String PREFIX = "h4j-relay";
    /** A relay dir without an owner record younger than this is never swept: its socket may be being bound. */
    private static final Duration STALE_AFTER = Duration.ofMinutes(1);
    private static final String SOCKET = "meter.sock";
    private static final String OWNER = "owner";

    private final Path dir;
    private final Path socket;
    private final int port;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private MeterRelay(Path dir, int port) throws IOException {
        this.dir = dir;
        this.socket = dir.resolve(SOCKET);
        this.port = port;
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread t = new Thread(this::accept, "harness4j-meter-relay");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts a relay to {@code 127.0.0.1:port} on a new socket in a new owner-only temp dir (short
     * path: a Unix socket's path is limited to ~100 bytes), with this process's owner record. The
     * dirs of relays whose process died without closing them (kill -9) are swept first ({@link
     * #sweepStale}).
     */
    public static MeterRelay start(int port) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        sweepStale(tmp, STALE_AFTER);
        Path dir = Files.createTempDirectory(tmp, PREFIX,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            writeOwner(dir, Owner.current());
            return new MeterRelay(dir, port);
        } catch (IOException | RuntimeException e) {
            try {
                deleteRelayDir(dir);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * Removes the relay dirs in {@code tmp} left by processes that died without closing their
     * relay: at once when the dir's owner record names a process that is dead on this host (or
     * whose pid now belongs to another process); for a dir without a readable owner record (an
     * older version's, or one whose record is being written), only when it is older than {@code
     * age} and its socket accepts no connection (a live relay always does). A live owner's dir is
     * left alone, and so are dirs this user cannot read.
     *
     * @return how many dirs were removed
     */
    static int sweepStale(Path tmp, Duration age) {
        int removed = 0;
        Instant cutoff = Instant.now().minus(age);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path dir : dirs) {
                try {
                    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    Owner owner = readOwner(dir);
                    boolean stale = owner != null ? owner.isDeadOnThisHost()
                            : !Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toInstant().isAfter(cutoff)
                                    && !listening(dir.resolve(SOCKET));
                    if (!stale) {
                        continue;
                    }
                    deleteRelayDir(dir);
                    removed++;
                } catch (IOException e) {
                    log.debug("left the relay dir {}: {}", dir, e.toString());
                }
            }
        } catch (IOException e) {
            log.debug("could not look for stale relay dirs in {}: {}", tmp, e.toString());
        }
        if (removed > 0) {
            log.info("removed {} meter relay dir(s) in {} left by processes that died", removed, tmp);
        }
        return removed;
    }

    /** Writes the owner record whole (a temp file renamed), so that a sweeper never reads half of one. */
    static void writeOwner(Path dir, Owner owner) throws IOException {
        String text = "pid=" + owner.pid() + "\n"
                + (owner.startTicks() == null ? "" : "start_ticks=" + owner.startTicks() + "\n")
                + (owner.startedAt() == null ? "" : "started_at=" + owner.startedAt() + "\n")
                + "host=" + owner.host() + "\n";
        Path tmp = dir.resolve(OWNER + ".tmp");
        Files.writeString(tmp, text, java.nio.charset.StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(OWNER), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The dir's owner record, or {@code null} when it has none or it cannot be read. */
    static Owner readOwner(Path dir) {
        Path f = dir.resolve(OWNER);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            Map<String, String> kv = new HashMap<>();
            for (String line : Files.readAllLines(f, java.nio.charset.StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    kv.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            String ticks = kv.get("start_ticks");
            String at = kv.get("started_at");
            return new Owner(Long.parseLong(kv.get("pid")), ticks == null ? null : Long.valueOf(ticks),
                    at == null ? null : Instant.parse(at), kv.get("host"));
        } catch (IOException | RuntimeException e) { // unreadable or not a record of ours: the age rule decides
            return null;
        }
    }

    /** Deletes the socket, the owner record and the dir; a dir holding anything else is left. */
    private static void deleteRelayDir(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(SOCKET));
        Files.deleteIfExists(dir.resolve(OWNER));
        Files.deleteIfExists(dir.resolve(OWNER + ".tmp"));
        Files.deleteIfExists(dir);
    }

    private static boolean listening(Path socket) {
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The Unix socket to bind into a sandbox. */
    public Path socket() {
        return socket;
    }

    /** The port the relay forwards to. */
    public int port() {
        return port;
    }

    private void accept() {
        while (!closed) {
            SocketChannel in;
            try {
                in = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("the meter relay stopped accepting: {}", e.toString());
                }
                return;
            }
            SocketChannel out;
            try {
                out = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            } catch (IOException e) {
                log.info("the meter relay could not reach 127.0.0.1:{}: {}", port, e.toString());
                closeQuietly(in);
                continue;
            }
            open.add(in);
            open.add(out);
            java.util.concurrent.atomic.AtomicInteger pumps = new java.util.concurrent.atomic.AtomicInteger(2);
            pump(in, out, pumps);
            pump(out, in, pumps);
        }
    }

    /** Copies until end of stream, then half-closes; the second pump of a pair to end closes both. */
    private void pump(SocketChannel from, SocketChannel to, java.util.concurrent.atomic.AtomicInteger pumps) {
        Thread t = new Thread(() -> {
            ByteBuffer buf = ByteBuffer.allocate(BUFFER);
            try {
                while (from.read(buf) >= 0) {
                    buf.flip();
                    while (buf.hasRemaining()) {
                        to.write(buf);
                    }
                    buf.clear();
                }
                to.shutdownOutput();
            } catch (IOException e) {
                closeQuietly(from);
                closeQuietly(to);
            } finally {
                if (pumps.decrementAndGet() == 0) {
                    closeQuietly(from);
                    closeQuietly(to);
                    open.remove(from);
                    open.remove(to);
                }
            }
        }, "harness4j-meter-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (SocketChannel c : open) {
            closeQuietly(c);
        }
        open.clear();
        try {
            deleteRelayDir(dir);
        } catch (IOException e) {
            log.debug("could not delete the meter relay's socket {}: {}", socket, e.toString());
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
    }
}
