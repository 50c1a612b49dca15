package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test: re-captures the real {@code claude} binary's stdout against the scripted model
 * server into {@code src/test/resources/dev/harness4j/claude/captured/}, which the parse tests
 * read. Runs only when asked:
 * {@code mvn -o -q -pl harness-claude -am verify -Dtest=CaptureClaudeOutput -Dsurefire.failIfNoSpecifiedTests=false
 * -Dharness4j.capture=$PWD/harness-claude/src/test/resources/dev/harness4j/claude/captured}.
 */
@EnabledIfSystemProperty(named = "harness4j.capture", matches = ".+",
        disabledReason = "re-captures claude's output only when -Dharness4j.capture=<dir> is set")
class CaptureClaudeOutput {
    private static final String KEY = "sk-test";

    @TempDir Path tmp;

    @Test
    void captureEveryScenario() throws Exception {
        Path out = Files.createDirectories(Path.of(System.getProperty("harness4j.capture")));
        Path claude = Clis.require(new ClaudeCodeHarness());
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(KEY);
                ProcessSupervisor supervisor = ProcessSupervisor.builder().build()) {
            server.script("cap-write", Scenario.builder()
                    .writeFile("hello.txt", "hello\n").usage(100, 20, 30, 40)
                    .say("Wrote hello.txt.").usage(110, 5, 0, 0).build());
            server.script("cap-other", Scenario.builder().answerAs("claude-other-9").say("Hi.").build());
            server.script("haiku", Scenario.builder().answerAs("claude-haiku-5-5").say("Hi from haiku.").build());
            server.script("cap-noop", Scenario.builder().say("Nothing to change.").build());
            server.script("cap-context", Scenario.builder().failContextLength().build());
            server.script("cap-ratelimit", Scenario.builder().failRateLimited(Duration.ofSeconds(90)).build());
            server.script("cap-500", Scenario.builder().fail(500, "scripted internal error").build());
            server.script("cap-529", Scenario.builder().failOverloaded().build());
            server.script("cap-400", Scenario.builder().fail(400, "scripted: tools.0: unknown field").build());
            server.script("cap-maxturns", Scenario.builder()
                    .writeFile("a.txt", "a\n").writeFile("b.txt", "b\n").say("Done.").build());

            capture(out, "write-file", "cap-write", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "answer-as-other", "cap-other", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "alias-haiku", "haiku", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "no-op", "cap-noop", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "context-overflow", "cap-context", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "rate-limited", "cap-ratelimit", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "auth", "cap-write", "sk-wrong", Limits.NONE, server, claude, supervisor);
            capture(out, "server-error-500", "cap-500", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "overloaded-529", "cap-529", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "bad-request-400", "cap-400", KEY, Limits.NONE, server, claude, supervisor);
            capture(out, "max-turns", "cap-maxturns", KEY, Limits.NONE.withMaxTurns(1), server, claude, supervisor);
        }
    }

    private void capture(Path out, String name, String model, String key, Limits limits, ScriptedModelServer server,
            Path claude, ProcessSupervisor supervisor) throws Exception {
        Path repo = GitRepos.withReadme(tmp.resolve(name).resolve("repo"));
        ResolvedProvider provider = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC),
                server.baseUrl(), Secret.of(key), AuthScheme.API_KEY, model);
        HarnessContext ctx = HarnessContext.builder().runId("cap-" + name).prompt("Do the task.")
                .provider(provider).workspace(repo).scratchDir(tmp.resolve(name).resolve("scratch"))
                .executable(claude.toString()).limits(limits).option("max-retries", "0")
                .environment(System.getenv()).runningAsRoot(true).build();
        Invocation inv = new ClaudeCodeHarness().prepare(ctx);
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(ctx.runId(), inv, tmp.resolve(name))
                .scratchDir(ctx.scratchDir())
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))).build());
        String stdout = Files.readString(tmp.resolve(name).resolve("stdout.log"));
        assertThat(stdout).doesNotContain(key);
        Files.writeString(out.resolve(name + ".stdout"), stdout);
        Files.writeString(out.resolve(name + ".exit"), outcome.exitCode() + "\n");
    }
}
