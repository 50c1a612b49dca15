package dev.harness4j.core;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.ProcessOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A step that runs after the harness process of a run has ended and its changes were captured,
 * before the workspace is deleted and the result written: it sees the workspace with the agent's
 * changes in place, can run commands there under the runner's supervision (own timeout, whole
 * process tree stopped), and can add a file to the run's result directory and a section to its
 * {@code meta.json}. A bench's verifier is one; the runner knows nothing about what it checks.
 *
 * <pre>{@code
 * AfterHarness check = ctx -> {
 *     Path log = ctx.scratchDir().resolve("check.log");
 *     ProcessOutcome o = ctx.run(List.of("sh", "-c", "make test"), Map.of(), Duration.ofMinutes(2), log);
 *     ctx.addResultFile("check.log", log);
 *     ctx.putMeta("check", Map.of("exit_code", o.exitCode()));
 * };
 * RunRecord record = runner.run(spec, runId, HarnessListener.NONE, check);
 * }</pre>
 *
 * <p>It is called once per run whose workspace was made and whose harness process was started
 * (whatever its outcome: {@link Context#result()} says how the run ended), on the run's thread.
 * A {@code RuntimeException} it throws is recorded as a note in {@code meta.json} and does not
 * change the run's outcome; what it added before throwing is kept.
 */
@FunctionalInterface
public interface AfterHarness {
    /** Does nothing. */
    AfterHarness NONE = ctx -> { };

    /**
     * Runs the step.
     *
     * @param context the run's workspace, result and the means to run commands and add results
     * @throws InterruptedException when interrupted while waiting for a command; the run ends
     *     {@code bailed}
     */
    void afterHarness(Context context) throws InterruptedException;

    /** What an {@link AfterHarness} step sees and may do; valid only during its call. */
    interface Context {
        /** The run's id. */
        String runId();

        /** The run's spec (task, trial, model, ...), prompt as the harness got it. */
        RunSpec spec();

        /** How the harness run ended, as it will be recorded. */
        HarnessResult result();

        /** The run's checkout, with the agent's changes in place; deleted after the step. */
        Path workspace();

        /** An empty directory private to the step, outside the workspace; deleted with the run. */
        Path scratchDir();

        /**
         * Runs a command in the workspace under the runner's process supervisor and waits for it:
         * after {@code timeout} its whole process tree is terminated, then killed. Both output
         * streams go, interleaved by line (secrets replaced), to {@code output}. When the runner
         * confines runs, the command runs in the same sandbox: writable only the workspace and
         * {@link #scratchDir()}, HOME an empty directory of its own, the run's network without
         * the meter (none, unless the run has the host's).
         *
         * @param command the executable and its arguments
         * @param environment added to the runner's environment
         * @param timeout the command's max runtime
         * @param output the file receiving the output (created or replaced)
         * @return how the command ended ({@link dev.harness4j.api.Termination.Kind#MAX_RUNTIME} after
         *     {@code timeout}, {@code START_FAILED} when it could not start)
         * @throws InterruptedException when interrupted while waiting; the command is stopped
         */
        ProcessOutcome run(List<String> command, Map<String, String> environment, Duration timeout, Path output)
                throws InterruptedException;

        /**
         * Copies a file into the run's result directory when the result is written (secrets
         * replaced).
         *
         * @param name a plain file name (no {@code /}), not one of the runner's own files ({@code
         *     meta.json}, {@code diff.patch}, ...)
         * @param source the file to copy; read when the result is written
         * @throws IllegalArgumentException for a bad or taken name
         */
        void addResultFile(String name, Path source);

        /**
         * Adds a top-level section to the run's {@code meta.json} and to {@link
         * RunRecord#sections()}.
         *
         * @param key a key the runner does not use itself ({@code verify}, say)
         * @param value a JSON-able value: {@code null}, a String, Number or Boolean, or a Map with
         *     String keys or a List of such values
         * @throws IllegalArgumentException for a key the runner uses or a value that is not JSON-able
         */
        void putMeta(String key, Object value);
    }
}
