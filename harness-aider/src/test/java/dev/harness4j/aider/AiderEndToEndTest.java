package dev.harness4j.aider;

import static dev.harness4j.aider.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The real installed {@code aider} against the scripted model server, through {@link
 * HarnessRunner} (ServiceLoader registration, workspace, launch script, supervision, capture).
 *
 * <p>aider starts slowly (Python, ~3-6 s) and gives up on a rate limit only after about a minute
 * of retries, so these tests are few and run concurrently; each logs its duration.
 */
@RealCli
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Execution(ExecutionMode.CONCURRENT)
class AiderEndToEndTest {
    private static final String KEY = "sk-test-aider";
    private static final Path CAPTURES = Path.of("target", "aider-captures");
    private static final Pattern TOKENS_LINE = Pattern.compile("Tokens: (\\S+) sent, (\\S+) received\\.");

    private Path tmp;
    private ScriptedModelServer server;
    private HarnessRunner runner;
    private Path baseline;
    private Map<String, String> baselineBefore;
    private Map<String, String> userAiderFilesBefore;

    @BeforeAll
    void setUp(@TempDir Path dir) throws Exception {
        tmp = dir;
        Clis.require(new AiderHarness());
        Files.createDirectories(CAPTURES);
        server = ScriptedModelServer.start().requireKey(KEY);
        baseline = GitRepos.baseline(tmp.resolve("baseline"));
        baselineBefore = repoConfig(baseline);
        userAiderFilesBefore = userAiderFiles();
        runner = HarnessRunner.builder()
                .stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.fromServices())
                .providers(resolver("scripted", KEY))
                .pushBranches(false)
                .build();
    }

    @AfterAll
    void tearDown() {
        if (runner != null) {
            runner.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private ProviderResolver resolver(String name, String key) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
                return provider.equals(name)
                        ? Optional.of(new ResolvedProvider(name, EnumSet.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC),
                                server.baseUrl(), Secret.of(key), AuthScheme.API_KEY, requestedModel))
                        : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of(name);
            }
        };
    }

    private RunRecord run(String provider, String model, Isolation isolation, Map<String, String> options) {
        RunSpec.Builder spec = RunSpec.builder(AiderHarness.ID, provider).model(model)
                .prompt("Create hello.txt with a greeting.").baseline(baseline).isolation(isolation)
                .task(model).limits(dev.harness4j.api.Limits.NONE.withMaxRuntime(Duration.ofMinutes(4)));
        options.forEach(spec::option);
        long t0 = System.nanoTime();
        RunRecord r = runner.run(spec.build());
        System.out.printf("aider e2e %-22s %-9s -> %-16s in %5d ms%n", model, isolation, r.result().outcome().wireName(),
                (System.nanoTime() - t0) / 1_000_000);
        return r;
    }

    private static String transcript(RunRecord r) throws IOException {
        return Files.readString(r.resultDir().resolve("transcript.log"));
    }

    private void assertWroteExactlyTheScriptedFile(RunRecord r, String content) throws Exception {
        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript(r)).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().headMoved()).as("aider auto-committed").isTrue();
        assertThat(r.changes().files()).containsExactly("hello.txt");
        String diff = Files.readString(r.resultDir().resolve("diff.patch"));
        assertThat(diff).contains("+++ b/hello.txt").doesNotContain(".aider").doesNotContain(".gitignore");
        assertThat(diff.lines().filter(l -> l.startsWith("+") && !l.startsWith("+++")).map(l -> l.substring(1)))
                .containsExactlyElementsOf(content.lines().toList());
        assertThat(transcript(r)).doesNotContain(KEY);
        assertThat(repoConfig(baseline)).as("the baseline's config (aider must not write an identity into it)")
                .isEqualTo(baselineBefore);
    }

    /**
     * The tokens of aider's own {@code Tokens:} line in the transcript: an estimate when aider
     * streamed (its tokenizer counted them), the endpoint's usage with {@code --no-stream}.
     */
    private static TokenUsage printedTokens(RunRecord r, TokenUsage.Source source) throws IOException {
        Matcher m = TOKENS_LINE.matcher(transcript(r));
        assertThat(m.find()).as("a Tokens: line in the transcript").isTrue();
        return new TokenUsage(UsageLines.parseCount(m.group(1)), UsageLines.parseCount(m.group(2)), null, null, source);
    }

    @Test
    void writesTheScriptedFileInACloneAndCommitsIt() throws Exception {
        server.script("aider-clone", Scenario.builder().writeFile("hello.txt", "hello from aider\n").usage(1234, 56, 0, 0).build());

        RunRecord r = run("scripted", "aider-clone", Isolation.CLONE, Map.of(AiderOptions.STREAM, "false"));

        assertWroteExactlyTheScriptedFile(r, "hello from aider\n");
        assertThat(transcript(r)).contains("Tokens: 1.2k sent, 56 received.");
        assertThat(r.adapterResult().tokens()).as("what aider printed, parsed by the adapter")
                .isEqualTo(new TokenUsage(1200L, 56L, null, null, TokenUsage.Source.ADAPTER))
                .isEqualTo(printedTokens(r, TokenUsage.Source.ADAPTER));
        assertThat(r.adapterResult().cost()).as("aider prices no scripted model").isNull();
        // from testkit's AiderEndToEndTest, run once here: whole edit format, no tools; the key as a bearer token
        assertThat(server.requests(RecordedRequest.Kind.TURN)).filteredOn(q -> "aider-clone".equals(q.model()))
                .isNotEmpty().allSatisfy(q -> {
                    assertThat(q.tools()).isEmpty();
                    assertThat(q.authHeaders()).containsExactly("authorization");
                });
        TokenUsage wire = r.result().tokens();
        assertThat(wire.source()).as("the run's figures come from the wire").isEqualTo(TokenUsage.Source.METERED);
        assertThat(wire.input()).as("the scripted call's 1234, plus aider's commit-message call").isGreaterThanOrEqualTo(1234L);
        assertThat(wire.output()).isGreaterThanOrEqualTo(56L);
        assertThat(userAiderFiles()).as("the user's ~/.aider*").isEqualTo(userAiderFilesBefore);
    }

    @Test
    void writesTheScriptedFileInAWorktreeAndCommitsIt() throws Exception {
        server.script("aider-worktree", Scenario.builder().writeFile("hello.txt", "hello from a worktree\nbye\n").build());

        RunRecord r = run("scripted", "aider-worktree", Isolation.WORKTREE, Map.of());

        assertWroteExactlyTheScriptedFile(r, "hello from a worktree\nbye\n");
        assertThat(r.adapterResult().tokens().isMeasured()).isTrue();
        assertThat(r.adapterResult().tokens()).isEqualTo(printedTokens(r, TokenUsage.Source.ESTIMATE));
        assertThat(git(baseline, "status", "--porcelain")).isEmpty();
        assertThat(userAiderFiles()).as("the user's ~/.aider*").isEqualTo(userAiderFilesBefore);
    }

    @Test
    void aChatOnlyReplyIsANoOp() throws Exception {
        server.script("aider-chat", Scenario.builder().say("There is nothing to change.").build());

        RunRecord r = run("scripted", "aider-chat", Isolation.CLONE, Map.of());

        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript(r)).isEqualTo(Outcome.NO_OP);
        assertThat(r.changes().changed()).isFalse();
        assertThat(r.adapterResult().tokens()).isEqualTo(printedTokens(r, TokenUsage.Source.ESTIMATE));
    }

    @Test
    void anExceededContextWindowIsContextOverflow() throws Exception {
        server.script("aider-400", Scenario.builder().failContextLength().build());

        RunRecord r = run("scripted", "aider-400", Isolation.CLONE, Map.of());

        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript(r)).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(r.changes().changed()).isFalse();
        assertThat(transcript(r)).contains("Tokens:").containsIgnoringCase("context window");
        assertThat(r.result().tokens()).as("aider's pre-send count of a rejected request is no usage")
                .isEqualTo(TokenUsage.unmeasured());
    }

    /**
     * A 429 with a {@code retry-after: 3} header and a body that says "Please try again in 20s"
     * (OpenAI's wording) is rate-limited with the header's reset time: the wire's header is the
     * most trusted source, the wait aider printed (the body's) comes after it. aider retries a 429
     * with a doubling delay for about a minute before it gives up, and LiteLLM's OpenAI client
     * retries each of its attempts twice more, waiting the header out: the slowest test, started
     * first so that the others run alongside it. (It is the only 429 run of aider: a plain 429
     * without a wait went the same way and is no longer run apart.) aider never prints the
     * header, so the adapter's own time is the body's 20 s counted from the end of the process;
     * the meter's reading of the last 429's header replaces it.
     */
    @Test
    @Order(0)
    void aRateLimitIsRateLimitedWithTheRetryAtOfItsHeaderNotTheWaitInItsBody() throws Exception {
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 60; i++) {
            s.failRateLimited(Duration.ofSeconds(3), "Rate limit reached for requests. Please try again in 20s.");
        }
        server.script("aider-429-wait", s.build());

        RunRecord r = run("scripted", "aider-429-wait", Isolation.CLONE, Map.of());

        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript(r)).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(transcript(r)).contains("Please try again in 20s").contains("Retrying in");
        assertThat(r.changes().changed()).isFalse();
        assertThat(r.result().retryAt()).as("retry-at; transcript:\n%s", transcript(r))
                .isNotNull()
                .isBetween(r.startedAt().plusSeconds(3), r.finishedAt().plusSeconds(3));
        assertThat(r.adapterResult().retryAt()).as("aider's own: the body's 20 s after it gave up, 17 s or more later")
                .isNotNull().isAfter(r.result().retryAt().plusSeconds(15));
        Files.writeString(CAPTURES.resolve("http-429-try-again.txt"), transcript(r));
    }

    /**
     * A connection dropped in the middle of every streamed answer: aider prints LiteLLM's error
     * on the same line as the partial text ({@code ...because thelitellm.APIConnectionError:
     * ...}) and retries; the meter stops it after the fifth failed request in a row (its
     * {@code stopAfterServerErrors(5)} default) instead of letting it retry for a minute. That is
     * transient, not a no-op, and the reason names both the stop and aider's own last error.
     */
    @Test
    @Order(1)
    void aConnectionDroppedMidAnswerIsTransient() throws Exception {
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 60; i++) {
            s.dropConnection();
        }
        server.script("aider-drop", s.build());

        RunRecord r = run("scripted", "aider-drop", Isolation.CLONE, Map.of());

        assertThat(r.result().outcome()).as("outcome; transcript:\n%s", transcript(r)).isEqualTo(Outcome.TRANSIENT);
        assertThat(r.result().reason())
                .contains("after 5 failed model requests in a row")
                .contains("aider's last model error: litellm.APIConnectionError");
        assertThat(r.changes().changed()).isFalse();
        Files.writeString(CAPTURES.resolve("dropped-connection.txt"), transcript(r));
    }

    private static Map<String, String> repoConfig(Path repo) throws IOException {
        return Map.of("config", Files.readString(repo.resolve(".git/config")));
    }

    /** Every {@code ~/.aider*} path of the real user with its size and modification time. */
    private static Map<String, String> userAiderFiles() throws IOException {
        Map<String, String> out = new TreeMap<>();
        Path home = Path.of(System.getProperty("user.home"));
        try (Stream<Path> top = Files.list(home)) {
            for (Path p : top.filter(p -> p.getFileName().toString().startsWith(".aider")).toList()) {
                try (Stream<Path> all = Files.walk(p)) {
                    for (Path f : all.toList()) {
                        out.put(home.relativize(f).toString(), Files.size(f) + "@" + Files.getLastModifiedTime(f));
                    }
                }
            }
        }
        return out;
    }
}
