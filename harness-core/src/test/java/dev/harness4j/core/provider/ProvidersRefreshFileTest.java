package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link Providers#refresh(String)} does to providers.json: only {@code models[]} changes,
 * through a symlink, keeping the mode, and no write is lost to another writer (another instance
 * or another process). Catalogues come from a real loopback server whose every answer is new.
 */
class ProvidersRefreshFileTest {
    @TempDir
    Path dir;

    private HttpServer server;
    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // /<provider>/v1/models answers {"data":[{"id":"<provider>-<n>"}]}, n counting up per provider
        server.createContext("/", ex -> {
            String provider = ex.getRequestURI().getPath().split("/")[1];
            int n = served.computeIfAbsent(provider, p -> new AtomicInteger()).incrementAndGet();
            byte[] body = ("{\"data\": [{\"id\": \"" + provider + "-" + n + "\"}]}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url(String provider) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + provider;
    }

    /** A hand-written file: unsorted api_styles, auth left out, its own layout, a second provider. */
    private String handWritten() {
        return "{\n"
                + "  \"schema_version\": 1,\n"
                + "  \"providers\": [\n"
                + "    {\n"
                + "      \"name\": \"a\",\n"
                + "      \"api_styles\": [\"openai\", \"anthropic\"],\n"
                + "      \"base_url\": \"" + url("a") + "\",\n"
                + "      \"key_env\": \"A_KEY\",\n"
                + "      \"key_required\": false,\n"
                + "      \"models\": [\"old-1\", \"old-2\"],\n"
                + "      \"health_path\": \"/health\"\n"
                + "    },\n"
                + "    { \"name\": \"b\", \"api_styles\": [\"openai\"], \"base_url\": \"" + url("b") + "\" }\n"
                + "  ]\n"
                + "}\n";
    }

    // item 5: only models[] changes, through a symlink, keeping the mode

    @Test
    void aRefreshChangesOnlyTheModelsOfItsProviderByteForByte() throws IOException {
        Path file = dir.resolve("providers.json");
        Files.writeString(file, handWritten());

        Providers.builder().configFile(file).build().refresh("a");
        Providers.builder().configFile(file).build().refresh("b");

        String expected = handWritten()
                .replace("\"models\": [\"old-1\", \"old-2\"]", "\"models\": [\"a-1\"]")
                .replace("\"base_url\": \"" + url("b") + "\" }", "\"base_url\": \"" + url("b") + "\", \"models\": [\"b-1\"] }");
        assertThat(Files.readString(file)).isEqualTo(expected);
    }

    @Test
    void aRefreshWritesThroughASymlinkToItsTarget() throws IOException {
        Path real = Files.createDirectories(dir.resolve("dotfiles")).resolve("providers.json");
        Files.writeString(real, handWritten());
        Path link = Files.createSymbolicLink(dir.resolve("providers.json"), real);

        CatalogueRefresh r = Providers.builder().configFile(link).build().refresh("a");

        assertThat(Files.isSymbolicLink(link)).as("the link is still a link").isTrue();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(real);
        assertThat(ProvidersFile.read(real).get(0).models()).containsExactly("a-1");
        assertThat(r.file()).contains(link);
    }

    @Test
    void aRefreshKeepsTheFilesMode() throws IOException {
        Path file = dir.resolve("providers.json");
        Files.writeString(file, handWritten());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        Providers.builder().configFile(file).build().refresh("a");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
    }

    // item 3: no lost write between writers

    @Test
    void twoInstancesRefreshingOneFileAtOnceLoseNoWrite() throws Exception {
        Path file = dir.resolve("providers.json");
        Files.writeString(file, handWritten());
        Providers first = Providers.builder().configFile(file).build();
        Providers second = Providers.builder().configFile(file).build();
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Integer> lost = new ArrayList<>();
        try {
            for (int round = 1; round <= 30; round++) {
                Future<?> a = pool.submit(() -> {
                    together.await(10, TimeUnit.SECONDS);
                    return first.refresh("a");
                });
                Future<?> b = pool.submit(() -> {
                    together.await(10, TimeUnit.SECONDS);
                    return second.refresh("b");
                });
                a.get(30, TimeUnit.SECONDS);
                b.get(30, TimeUnit.SECONDS);
                List<ProviderConfig> onDisk = ProvidersFile.read(file);
                if (!onDisk.get(0).models().equals(List.of("a-" + round))
                        || !onDisk.get(1).models().equals(List.of("b-" + round))) {
                    lost.add(round);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(lost).as("rounds in which one of two concurrent refreshes was lost").isEmpty();
    }

    @Test
    void aRefreshInAnotherProcessLosesNoWriteOfThisOne() throws Exception {
        Path file = dir.resolve("providers.json");
        Files.writeString(file, handWritten());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx96m", "-cp", System.getProperty("java.class.path"),
                RefreshLoop.class.getName(), file.toString(), "b")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> regressions = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).as("the child refreshed once").isEqualTo("ready");
            Providers providers = Providers.builder().configFile(file).build();
            for (int round = 1; round <= 30; round++) {
                providers.refresh("a");
                Thread.sleep(30); // the other process refreshes "b" meanwhile
                List<String> onDisk = ProvidersFile.read(file).get(0).models();
                if (!onDisk.equals(List.of("a-" + round))) {
                    regressions.add("round " + round + ": " + onDisk);
                }
            }
        } finally {
            child.destroy();
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertThat(served.get("b").get()).as("the child refreshed concurrently").isGreaterThan(5);
        assertThat(regressions).as("this process's refresh overwritten by the other's stale copy").isEmpty();
    }

    /** The second process: refreshes one provider of a file over and over until killed. */
    public static final class RefreshLoop {
        public static void main(String[] args) {
            Providers providers = Providers.builder().configFile(Path.of(args[0])).build();
            providers.refresh(args[1]);
            System.out.println("ready");
            System.out.flush();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // a bound should the parent vanish
            while (System.nanoTime() < end) {
                providers.refresh(args[1]);
            }
        }
    }
}
