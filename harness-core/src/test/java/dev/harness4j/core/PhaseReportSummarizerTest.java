package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The summarizer: without a valid self-report, a separate model call over real HTTP (a loopback
 * JDK {@code HttpServer}) in the provider's API style gives the report; garbage, an HTTP error, a
 * timeout or an unknown provider fall back to git's report with a note; its key is sent in a
 * header only and reaches no file.
 */
class PhaseReportSummarizerTest {
    private static final String SUMM_KEY = "sk-summarizer-Secr3t-9911";
    private static final String ANSWER = "{\"completed\": true, \"commit_message\": \"Add a.txt\", \"summary\":"
            + " \"The agent added a.txt.\", \"next_phase_notes\": \"Use a.txt next.\", \"blockers\": []}";

    /** One request the summarizer endpoint received. */
    record Seen(String path, Map<String, List<String>> headers, String body) {}

    @TempDir Path tmp;
    private Path base;
    private HttpServer server;
    private final java.util.concurrent.ExecutorService serverThreads = java.util.concurrent.Executors.newCachedThreadPool();
    private final Map<String, Handler> handlers = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void setUp() throws Exception {
        base = repo(tmp.resolve("base"));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(serverThreads);
        server.createContext("/", ex -> {
            Handler h = handlers.get(ex.getRequestURI().getPath());
            try {
                if (h == null) {
                    send(ex, 404, "{}");
                } else {
                    h.handle(ex);
                }
            } finally {
                ex.close();
            }
        });
        server.start();
    }

    /** Answers one request. */
    interface Handler {
        void handle(HttpExchange ex) throws java.io.IOException;
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void send(HttpExchange ex, int status, String body) throws java.io.IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        server.stop(0);
        serverThreads.shutdownNow();
    }

    private ProviderResolver summarizers() {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                ApiStyle style = switch (provider) {
                    case "summ-openai" -> ApiStyle.OPENAI;
                    case "summ-anthropic" -> ApiStyle.ANTHROPIC;
                    default -> null;
                };
                return style == null ? Optional.empty() : Optional.of(new ResolvedProvider(provider, EnumSet.of(style),
                        url(), Secret.of(SUMM_KEY), style == ApiStyle.OPENAI ? AuthScheme.BEARER
                        : AuthScheme.API_KEY, model != null ? model : "summ-default"));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("summ-openai", "summ-anthropic");
            }
        };
    }

    private RunRecord run(PhaseReports reports, String script) {
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).phaseReports(reports)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider(), summarizers()).build()) {
            return runner.run(RunSpec.builder(ShellHarness.ID, "local").model("m1").prompt("Add a.txt").baseline(base)
                    .option("script", script).build());
        }
    }

    private Handler answer(int status, String body) {
        return ex -> {
            record(ex);
            send(ex, status, body);
        };
    }

    private void record(HttpExchange ex) throws java.io.IOException {
        Map<String, List<String>> h = new java.util.TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> h.put(k.toLowerCase(java.util.Locale.ROOT), List.copyOf(v)));
        seen.add(new Seen(ex.getRequestURI().getPath(), h, new String(ex.getRequestBody().readAllBytes(),
                StandardCharsets.UTF_8)));
    }

    private static String chat(String content) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"summ\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":" + quote(content) + "},\"finish_reason\":\"stop\"}]}";
    }

    private static String quote(String s) {
        return new ObjectMapper().valueToTree(s).toString();
    }

    private static final String AGENT = "echo a > a.txt; echo \"AGENT-SAID-done key=$TEST_KEY\"";

    @Test
    void withoutASelfReportTheSummarizerReportsOverChatCompletions() throws Exception {
        handlers.put("/v1/chat/completions", answer(200, chat("Here it is:\n```json\n" + ANSWER + "\n```")));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT);

        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.SUMMARIZED);
        assertThat(p.summary()).isEqualTo("The agent added a.txt.");
        assertThat(p.nextPhaseNotes()).isEqualTo("Use a.txt next.");
        assertThat(p.completed()).isTrue();
        assertThat(p.committed()).as("from git: nothing committed").isFalse();
        assertThat(new ObjectMapper().readTree(r.metaFile().toFile()).path("phase_report").path("source").asText())
                .isEqualTo("summarized");
        assertThat(seen).hasSize(1);
        Seen s = seen.get(0);
        assertThat(s.headers().get("authorization")).containsExactly("Bearer " + SUMM_KEY);
        JsonNode body = new ObjectMapper().readTree(s.body());
        assertThat(body.path("model").asText()).isEqualTo("summ-small");
        assertThat(body.path("stream").asBoolean()).isFalse();
        assertThat(s.body()).contains("a.txt", "AGENT-SAID-done", "The task:\\nAdd a.txt\\n")
                .as("the task without the runner's framing").doesNotContain("You are running headless", "report.json")
                .as("the run's own key is not sent to the summarizer").doesNotContain(ShellHarness.KEY);
        assertNoneContains(r.resultDir(), SUMM_KEY);
    }

    @Test
    void anAnthropicSummarizerGetsTheMessagesApiWithItsKeyInXApiKey() throws Exception {
        handlers.put("/v1/messages", answer(200, "{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":" + quote(ANSWER) + "}],\"stop_reason\":\"end_turn\","
                + "\"usage\":{\"input_tokens\":1200,\"output_tokens\":77}}"));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-anthropic", null), AGENT);

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SUMMARIZED);
        assertThat(r.result().phaseReport().summarizer())
                .isEqualTo(new PhaseReport.SummarizerCall("summ-anthropic", "summ-default", 1200L, 77L));
        Seen s = seen.get(0);
        assertThat(s.path()).isEqualTo("/v1/messages");
        assertThat(s.headers().get("x-api-key")).containsExactly(SUMM_KEY);
        assertThat(s.headers()).doesNotContainKey("authorization").containsKey("anthropic-version");
        assertThat(new ObjectMapper().readTree(s.body()).path("model").asText()).isEqualTo("summ-default");
    }

    @Test
    void theSummarizersTokensAreInThePhaseReportSectionAndNotInTheRunsTokens() throws Exception {
        String withUsage = chat(ANSWER).replaceFirst("}$", ",\"usage\":{\"prompt_tokens\":43210,"
                + "\"completion_tokens\":98,\"total_tokens\":43308}}");
        handlers.put("/v1/chat/completions", answer(200, withUsage));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT);

        assertThat(r.result().phaseReport().summarizer())
                .isEqualTo(new PhaseReport.SummarizerCall("summ-openai", "summ-small", 43210L, 98L));
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        JsonNode z = meta.path("phase_report").path("summarizer");
        assertThat(z.path("provider").asText()).isEqualTo("summ-openai");
        assertThat(z.path("model").asText()).isEqualTo("summ-small");
        assertThat(z.path("tokens").path("input").asLong()).isEqualTo(43210);
        assertThat(z.path("tokens").path("output").asLong()).isEqualTo(98);
        assertThat(String.valueOf(r.result().tokens())).as("the run's own tokens").doesNotContain("43210");
        assertThat(meta.path("tokens").toString()).doesNotContain("43210", "43308");

        // an answer that gave no report still used tokens: recorded beside a git-derived report
        handlers.put("/v1/chat/completions", answer(200, chat("no idea").replaceFirst("}$",
                ",\"usage\":{\"prompt_tokens\":500}}")));
        RunRecord garbage = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT);
        assertThat(garbage.result().phaseReport().source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        JsonNode g = new ObjectMapper().readTree(garbage.metaFile().toFile()).path("phase_report").path("summarizer");
        assertThat(g.path("tokens").path("input").asLong()).isEqualTo(500);
        assertThat(g.path("tokens").path("output").isNull()).as("unmeasured, not 0").isTrue();

        // without a summarizer there is no such section
        RunRecord none = run(PhaseReports.DEFAULT, AGENT);
        assertThat(new ObjectMapper().readTree(none.metaFile().toFile()).path("phase_report").has("summarizer")).isFalse();
    }

    @Test
    void aValidSelfReportMeansNoSummarizerCall() {
        handlers.put("/v1/chat/completions", answer(200, chat(ANSWER)));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT + "; "
                + PhaseReportTest.report("{\"completed\": false, \"committed\": false, \"summary\": \"half done\"}"));

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(r.result().phaseReport().summary()).isEqualTo("half done");
        assertThat(seen).isEmpty();
    }

    @Test
    void aMalformedSelfReportFallsToTheSummarizer() {
        handlers.put("/v1/chat/completions", answer(200, chat(ANSWER)));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT + "; "
                + PhaseReportTest.report("{\"completed\": 1}"));

        assertThat(r.result().phaseReport().source()).isEqualTo(PhaseReport.Source.SUMMARIZED);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("report.json ignored"));
    }

    @Test
    void garbageFromTheSummarizerFallsBackToGitWithANote() throws Exception {
        handlers.put("/v1/chat/completions", answer(200, chat("I think it went rather well {not json")));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT);

        assertGitDerivedWithNote(r, "no valid report");
    }

    @Test
    void anHttpErrorFromTheSummarizerFallsBackToGitWithANote() throws Exception {
        handlers.put("/v1/chat/completions", answer(500, "{\"error\":{\"message\":\"boom " + SUMM_KEY + "\"}}"));

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small"), AGENT);

        assertGitDerivedWithNote(r, "HTTP 500");
    }

    @Test
    void aSummarizerThatDoesNotAnswerInTimeFallsBackToGitWithANote() throws Exception {
        handlers.put("/v1/chat/completions", ex -> {
            record(ex);
            try {
                release.await(60, TimeUnit.SECONDS); // until the test ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("summ-openai", "summ-small")
                .withSummarizerTimeout(Duration.ofSeconds(2)), AGENT);

        assertGitDerivedWithNote(r, "within 2000 ms");
        assertThat(seen).hasSize(1);
    }

    @Test
    void anUnknownSummarizerProviderFallsBackToGitWithANote() throws Exception {
        RunRecord r = run(PhaseReports.DEFAULT.withSummarizer("nobody", null), AGENT);

        assertGitDerivedWithNote(r, "could not be resolved");
    }

    private void assertGitDerivedWithNote(RunRecord r, String why) throws Exception {
        assertThat(r.result().outcome().isSuccess()).as("the summarizer never fails the run").isTrue();
        PhaseReport p = r.result().phaseReport();
        assertThat(p.source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("summarizer", why));
        assertNoneContains(r.resultDir(), SUMM_KEY);
    }

    private static void assertNoneContains(Path dir, String secret) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f, StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain(secret);
            }
        }
    }
}
