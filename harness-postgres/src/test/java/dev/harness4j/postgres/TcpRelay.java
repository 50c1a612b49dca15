package dev.harness4j.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay to the test server whose network can be cut: {@link #cut()} closes every
 * relayed connection and makes new ones close at once (counted in {@link #refused()}), {@link
 * #restore()} relays again. A real network failure as the JDBC driver sees it.
 */
final class TcpRelay implements AutoCloseable {
    private final ServerSocket server;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean cut;

    TcpRelay(int targetPort) throws IOException {
        this.target = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "tcp-relay-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    int refused() {
        return refused.get();
    }

    void cut() {
        cut = true;
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                if (cut) {
                    refused.incrementAndGet();
                    closeQuietly(in);
                    continue;
                }
                Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(in);
                open.add(out);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // closed, or one connection failed: go on
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the connection ended
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }
}
