package dev.harness4j.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * A fake HOME and a network that ends at loopback, for runs that must neither write the user's
 * HOME nor reach anything but the model endpoint.
 *
 * <p>The HOME is seeded with the dirs package managers and CLIs write to ({@code .npm}, {@code
 * .cache}, {@code .config}, {@code .local}). Every proxy variable, the npm registry and the pip
 * index point at a loopback trap that records the first line of every connection and closes it;
 * {@code NO_PROXY} exempts loopback, so the scripted model server stays reachable. Used by the
 * adapters' offline end-to-end tests: run with {@link #environment()} as the runner's
 * environment and {@link #trapVariables()} as its explicit variables, then assert {@link #trapped()} is empty and {@link #snapshot()} unchanged.
 */
public final class OfflineHome implements AutoCloseable {
    private final Path home;
    private final ServerSocket trap;
    private final List<String> trapped = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /**
     * Seeds {@code home} and starts the loopback trap.
     *
     * @param home an empty directory to serve as HOME
     * @throws IOException when the seed files or the trap's socket cannot be made
     */
    public OfflineHome(Path home) throws IOException {
        this.home = home;
        for (String rel : List.of(".npm/_cacache/index-v5/00/seed", ".cache/seed/seed.txt",
                ".config/seed/seed.json", ".local/share/seed/seed.txt", ".local/state/seed/seed.txt")) {
            Path f = home.resolve(rel);
            Files.createDirectories(f.getParent());
            Files.writeString(f, "seeded by the test\n");
        }
        trap = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "offline-home-trap");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!trap.isClosed()) {
            try (Socket s = trap.accept()) {
                s.setSoTimeout(2000);
                trapped.add(firstLine(s.getInputStream()));
            } catch (IOException e) {
                if (trap.isClosed()) {
                    return;
                }
            }
        }
    }

    private static String firstLine(InputStream in) {
        StringBuilder sb = new StringBuilder();
        try {
            int c;
            while ((c = in.read()) != -1 && c != '\n' && sb.length() < 300) {
                sb.append((char) c);
            }
        } catch (IOException e) {
            sb.append("<no request line: ").append(e.getMessage()).append('>');
        }
        return sb.toString().strip();
    }

    /** The fake HOME. */
    public Path home() {
        return home;
    }

    /**
     * This JVM's environment with HOME in the fake one, the XDG base dirs unset (so they default
     * below HOME), and every way out of the machine pointed at the trap.
     */
    public Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("XDG_") || k.toLowerCase().endsWith("_proxy")
                || k.toLowerCase().startsWith("npm_config_") || k.startsWith("PIP_"));
        String url = "http://127.0.0.1:" + trap.getLocalPort();
        env.put("HOME", home.toString());
        for (String name : List.of("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")) {
            env.put(name, url);
        }
        env.put("NO_PROXY", "127.0.0.1,localhost");
        env.put("no_proxy", "127.0.0.1,localhost");
        env.put("npm_config_registry", url + "/");
        env.put("PIP_INDEX_URL", url + "/simple/");
        return env;
    }

    /**
     * The variables of {@link #environment()} that point every way out of the machine at the
     * trap (proxies, {@code NO_PROXY}, the npm registry, the pip index): a runner passes none of
     * its own environment to a run beyond the allowlist, so a test gives these explicitly:
     * {@code runnerEnvironment(offline.environment()).environment(offline.trapVariables())}.
     */
    public Map<String, String> trapVariables() {
        Map<String, String> env = new HashMap<>(environment());
        env.keySet().removeIf(k -> !(k.toLowerCase().endsWith("_proxy") || k.equals("npm_config_registry")
                || k.equals("PIP_INDEX_URL")));
        return env;
    }

    /** The first line of every connection the trap received (requests that tried to leave loopback). */
    public List<String> trapped() {
        return List.copyOf(trapped);
    }

    /** Every path below the fake HOME with its content and modification time ({@link #snapshot(Path)}). */
    public Map<String, String> snapshot() {
        return snapshot(home);
    }

    /**
     * Every path below {@code dir}, in order, with each file's SHA-256 and modification time: two
     * equal snapshots mean nothing below {@code dir} was created, removed or written.
     *
     * @param dir an existing directory
     * @return relative path → {@code sha256@mtime}, {@code dir} or {@code other}
     */
    public static Map<String, String> snapshot(Path dir) {
        Map<String, String> out = new java.util.TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.toList()) {
                String rel = dir.relativize(p).toString();
                if (Files.isRegularFile(p)) {
                    MessageDigest md = MessageDigest.getInstance("SHA-256");
                    out.put(rel, HexFormat.of().formatHex(md.digest(Files.readAllBytes(p))) + "@"
                            + Files.getLastModifiedTime(p).toMillis());
                } else {
                    out.put(rel, Files.isDirectory(p) ? "dir" : "other");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        trap.close();
    }
}
