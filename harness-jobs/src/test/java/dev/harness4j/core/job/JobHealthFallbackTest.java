package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health checks before a phase, over real HTTP: {@code down} points at a closed port, {@code sick}
 * answers 503, {@code stall} never answers, {@code spare} answers a model list (healthy), {@code
 * login} is the CLI's own login (no endpoint).
 */
class JobHealthFallbackTest {
    @TempDir
    Path tmp;
    Path repo;
    HttpServer server;
    final CountDownLatch release = new CountDownLatch(1);
    final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    HarnessRunner runner;
    JobRunner jobs;
    final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/", ex -> {
            String name = ex.getRequestURI().getPath().split("/")[1];
            hits.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
            if (name.equals("stall")) {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = (name.equals("spare") ? "{\"data\":[{\"id\":\"m1\"}]}" : "{\"error\":\"overloaded\"}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(name.equals("spare") ? 200 : 503, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        Providers providers = Providers.builder()
                .add(config("down", "http://127.0.0.1:" + closed + "/down"), config("sick", base + "/sick"),
                        config("stall", base + "/stall"), config("spare", base + "/spare"),
                        ProviderConfig.builder("login").cliLogin().models("m1").defaultModel("m1").build())
                .environment(Map.of()).build();
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new JobHarness()).build())
                .providers(providers).metering(false).sandbox(Sandbox.OFF).loginProbe(false).build();
        jobs = JobRunner.builder(runner).listener(events::add).healthChecks(providers).build();
    }

    private static ProviderConfig config(String name, String url) {
        return ProviderConfig.builder(name).apiStyles(ApiStyle.OPENAI).baseUrl(url).models("m1").defaultModel("m1")
                .build();
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        jobs.close();
        runner.close();
        server.stop(0);
    }

    private static PhaseSpec.Builder phase(String provider) {
        return PhaseSpec.builder("a", "do a").provider(provider).option("script",
                "echo a > a && git add a && git commit -qm \"phase a on $PROVIDER\"");
    }

    private List<String> history(JobStatus s) {
        return List.of(GitFixture.git(s.repository(), "log", "--reverse", "--format=%s", s.branch()).strip().split("\n"));
    }

    private List<JobEvent> kind(JobEvent.Kind k) {
        return events.stream().filter(e -> e.kind() == k).toList();
    }

    @Test
    void anUnhealthyProviderIsReplacedByTheNextHealthyFallbackWithEveryCheckAndSwitchRecorded() throws Exception {
        JobStatus s = jobs.run(JobTesting.plan(repo).id("health")
                .phase(phase("down").fallback("sick", null).fallback("spare", null).build()).build());

        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(history(s)).containsExactly("initial", "phase a on spare");
        assertThat(s.phase("a").runIds()).hasSize(1); // nothing ran on an unhealthy provider
        assertThat(kind(JobEvent.Kind.HEALTH_CHECK)).extracting(JobEvent::detail).satisfiesExactly(
                d -> assertThat(d).startsWith("down is unhealthy").contains("connection refused"),
                d -> assertThat(d).startsWith("sick is unhealthy").contains("HTTP 503", "overloaded"));
        assertThat(kind(JobEvent.Kind.PROVIDER_SWITCH)).extracting(JobEvent::detail).satisfiesExactly(
                d -> assertThat(d).contains("from down to sick:", "down failed its health check"),
                d -> assertThat(d).contains("from sick to spare:", "sick failed its health check"));
        // the switch is in the checkpoint and in events.jsonl, as read back from disk
        assertThat(jobs.status("health").phase("a").provider()).isEqualTo("spare");
        String log = Files.readString(s.dir().resolve("events.jsonl"));
        assertThat(log).contains("\"health-check\"", "down is unhealthy", "sick is unhealthy", "from sick to spare");
        assertThat(hits.get("spare")).hasPositiveValue();
    }

    @Test
    void withNoHealthyProviderThePhaseFailsBeforeItRunsNamingEachProviderAndWhy() {
        JobStatus s = jobs.run(JobTesting.plan(repo)
                .phase(phase("down").fallback("sick", null).build())
                .phase(PhaseSpec.builder("b", "do b").provider("spare").option("script", "true").build()).build());

        assertThat(s.state()).isEqualTo(JobState.FAILED);
        assertThat(s.phases()).extracting(PhaseStatus::state).containsExactly(PhaseState.FAILED, PhaseState.SKIPPED);
        assertThat(s.phase("a").runIds()).isEmpty();
        assertThat(s.reason()).contains("no healthy provider", "down (", "connection refused", "sick (", "HTTP 503",
                "no fallback left", "health_check: false");
        assertThat(history(s)).containsExactly("initial");
    }

    @Test
    void aStallingHealthRouteCountsAsUnhealthyAfterTheJobsTimeout() throws Exception {
        long start = System.nanoTime();
        JobStatus s = jobs.run(JobTesting.plan(repo).healthCheckTimeout(Duration.ofSeconds(1))
                .phase(phase("stall").fallback("spare", null).build()).build());

        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(history(s)).containsExactly("initial", "phase a on spare");
        assertThat(kind(JobEvent.Kind.HEALTH_CHECK)).singleElement()
                .satisfies(e -> assertThat(e.detail()).startsWith("stall is unhealthy").contains("timed out"));
        // bounded by the job's timeout (two catalogue URLs of 1 s each), not the 60 s the server stalls
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(50));
    }

    @Test
    void aJobWithTheCheckOffAndACliLoginProviderAreNotChecked() throws Exception {
        JobStatus off = jobs.run(JobTesting.plan(repo).id("off").healthCheck(false)
                .phase(phase("sick").fallback("spare", null).build()).build());
        assertThat(off.state()).isEqualTo(JobState.COMPLETED);
        assertThat(history(off)).containsExactly("initial", "phase a on sick");
        assertThat(hits).doesNotContainKey("sick");
        assertThat(JobPlan.read(writePlanWithCheckOff()).healthCheckTimeout()).isNull();

        JobStatus login = jobs.run(JobTesting.plan(repo).id("login").phase(phase("login").build()).build());
        assertThat(login.state()).isEqualTo(JobState.COMPLETED);
        assertThat(history(login)).containsExactly("initial", "phase a on login");
        assertThat(kind(JobEvent.Kind.HEALTH_CHECK)).isEmpty();
    }

    private Path writePlanWithCheckOff() throws IOException {
        return Files.writeString(tmp.resolve("plan.json"), "{\"baseline\": \"repo\", \"harness\": \"" + JobHarness.ID
                + "\", \"provider\": \"sick\", \"health_check\": false, \"health_check_timeout_seconds\": 3,"
                + " \"phases\": [{\"id\": \"a\", \"prompt\": \"do a\"}]}");
    }
}
