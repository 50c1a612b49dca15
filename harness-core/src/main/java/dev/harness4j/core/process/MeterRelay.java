package dev.harness4j.core.process;

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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outside half of the meter relay: a Unix socket (bound into each sandbox) whose every
 * connection is forwarded to {@code 127.0.0.1:<port>}, the metering proxy. Daemon threads; two
 * per open connection. Closing it closes the socket and every open connection.
 */
public final class MeterRelay implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MeterRelay.class);
    private static final int BUFFER = 64 * 1024;
    private static final String PREFIX = "h4j-relay";
    /** A relay dir younger than this is never swept: its socket may be being bound. */
    private static final Duration STALE_AFTER = Duration.ofMinutes(1);

    private final Path dir;
    private final Path socket;
    private final int port;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private MeterRelay(Path dir, int port) throws IOException {
        this.dir = dir;
        this.socket = dir.resolve("meter.sock");
        this.port = port;
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread t = new Thread(this::accept, "harness4j-meter-relay");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts a relay to {@code 127.0.0.1:port} on a new socket in a new owner-only temp dir (short
     * path: a Unix socket's path is limited to ~100 bytes). The dirs of relays whose process died
     * without closing them (kill -9) are swept first ({@link #sweepStale}).
     */
    public static MeterRelay start(int port) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        sweepStale(tmp, STALE_AFTER);
        Path dir = Files.createTempDirectory(tmp, PREFIX,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return new MeterRelay(dir, port);
    }

    /**
     * Removes the relay dirs in {@code tmp} left by processes that died without closing their relay:
     * older than {@code age} (a younger one may be binding its socket right now), and whose socket
     * accepts no connection (a live relay always does). Dirs this user cannot read are left alone.
     *
     * @return how many dirs were removed
     */
    static int sweepStale(Path tmp, Duration age) {
        int removed = 0;
        Instant cutoff = Instant.now().minus(age);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path dir : dirs) {
                try {
                    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                            || Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toInstant().isAfter(cutoff)
                            || listening(dir.resolve("meter.sock"))) {
                        continue;
                    }
                    Files.deleteIfExists(dir.resolve("meter.sock"));
                    Files.deleteIfExists(dir);
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
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
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
