package dev.harness4j.testkit.model;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.testkit.Clis;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a real CLI in tests: output to files (no pipe can fill), always with a timeout, kills only its own tree. */
final class CliProcess {
    /** How long one CLI run may take: 120 s. */
    static final Duration TIMEOUT = Duration.ofSeconds(120);

    record Result(int exitCode, String stdout, String stderr) {
        String both() {
            return stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    private CliProcess() {}

    /** The installed executable of a CLI, or skip (fail in CI) when it is missing. */
    static Path require(String harnessId, String binary) {
        return Clis.require(new LookupOnly(harnessId, binary));
    }

    static Result run(List<String> command, Path dir, Map<String, String> env, String stdin, Path scratch)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(scratch, "stdout", ".txt");
        Path err = Files.createTempFile(scratch, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("ANTHROPIC_") || k.startsWith("OPENAI_")
                || k.startsWith("CLAUDE_") || k.startsWith("OPENCODE") || k.startsWith("AIDER_"));
        pb.environment().put("PWD", dir.toString());
        pb.environment().putAll(env);
        Path in = null;
        if (stdin == null) {
            pb.redirectInput(new File("/dev/null"));
        } else {
            in = Files.createTempFile(scratch, "stdin", ".txt");
            Files.writeString(in, stdin);
            pb.redirectInput(in.toFile());
        }
        Process p = pb.start();
        try {
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(command.get(0) + " did not finish within " + TIMEOUT.toSeconds() + " s; output so far:\n"
                        + Files.readString(out) + "\n" + Files.readString(err));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** A temp git repository with one commit. */
    static Path gitRepo(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("README.md"), "scripted test repo\n");
        for (List<String> cmd : List.of(List.of("git", "init", "-q", "-b", "main"),
                List.of("git", "-c", "user.name=test", "-c", "user.email=test@example.com", "add", "."),
                List.of("git", "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "init"))) {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("git command failed: " + cmd);
            }
        }
        return dir;
    }

    /** Only names the binary, so {@link Clis#require} can find it; the adapters are not a dependency here. */
    private record LookupOnly(String id, String binary) implements Harness {
        @Override
        public CompletionMode completionMode() {
            return CompletionMode.OPAQUE;
        }

        @Override
        public InstallInfo installInfo() {
            return new InstallInfo(binary, List.of("--version"), "bash scripts/install-clis.sh");
        }

        @Override
        public Invocation prepare(HarnessContext context) {
            throw new UnsupportedOperationException("lookup only");
        }

        @Override
        public HarnessResult interpret(Execution execution) {
            throw new UnsupportedOperationException("lookup only");
        }
    }
}
