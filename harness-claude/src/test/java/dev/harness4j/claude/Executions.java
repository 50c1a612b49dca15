package dev.harness4j.claude;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

/** Builds {@link Execution}s over real output files for the pure interpret tests. */
final class Executions {
    static final GitChanges CHANGED = new GitChanges("a1", "a1", false, true, List.of("hello.txt"), 1, 0);
    static final GitChanges UNCHANGED = GitChanges.none("a1");

    private final Path dir;
    private String model = "scripted-a";
    private String stdout = "";
    private String stderr = "";
    private Integer exit = 0;
    private Termination termination = Termination.exited();
    private GitChanges changes = CHANGED;

    private Executions(Path dir) {
        this.dir = dir;
    }

    static Executions in(Path dir) {
        return new Executions(dir);
    }

    /** The text of a test resource below {@code dev/harness4j/claude/}. */
    static String resource(String name) {
        try (InputStream in = Executions.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Executions model(String v) { this.model = v; return this; }
    Executions stdout(String v) { this.stdout = v; return this; }
    Executions stderr(String v) { this.stderr = v; return this; }
    Executions exit(Integer v) { this.exit = v; return this; }
    Executions termination(Termination v) { this.termination = v; return this; }
    Executions changes(GitChanges v) { this.changes = v; return this; }

    Execution build() {
        try {
            Path out = Files.writeString(dir.resolve("stdout.txt"), stdout);
            Path err = Files.writeString(dir.resolve("stderr.txt"), stderr);
            ResolvedProvider provider = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC),
                    URI.create("http://127.0.0.1:4567"), Secret.of("sk-test"), AuthScheme.API_KEY, model);
            HarnessContext ctx = HarnessContext.builder().prompt("p").provider(provider).workspace(dir)
                    .scratchDir(dir.resolve("scratch")).executable("claude").build();
            Invocation inv = new ClaudeCodeHarness().prepare(ctx);
            return new Execution(ctx, inv, exit, termination, out, err, changes, Duration.ofSeconds(3));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
