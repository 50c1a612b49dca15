package dev.harness4j.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A task's reference solution: a shell script that, run with {@code sh} in a fresh workspace of
 * the task, solves it. The {@code oracle} reference harness runs it (under the runner's
 * supervision and sandbox, like any agent) so that {@link SuiteCheck} can tell whether the
 * verifier accepts a correct solution. The script's text is read when the suite is loaded: it runs
 * in the workspace, which holds only the task's repository (never the task directory).
 *
 * <pre>{@code
 * BenchTask.builder("greeting").instruction("...").verify(TaskVerify.of("sh verify/check.sh"))
 *         .solution(TaskSolution.of("printf 'Hello, bench!\\n' > greeting.txt"))
 *         .build();
 * }</pre>
 *
 * @param script the script's text, not blank
 * @param source the file it was read from, or {@code null} for inline commands
 */
public record TaskSolution(String script, Path source) {
    public TaskSolution {
        Objects.requireNonNull(script, "script");
        if (script.isBlank()) {
            throw new IllegalArgumentException("the reference solution is blank");
        }
    }

    /** Inline commands as the solution. */
    public static TaskSolution of(String commands) {
        return new TaskSolution(commands, null);
    }

    /**
     * A script file as the solution, read now.
     *
     * @throws UncheckedIOException when the file cannot be read
     */
    public static TaskSolution file(Path script) {
        Objects.requireNonNull(script, "script");
        try {
            return new TaskSolution(Files.readString(script, StandardCharsets.UTF_8), script.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("the reference solution " + script + " cannot be read", e);
        }
    }
}
