package dev.harness4j.core;

import java.util.Objects;

/**
 * The text that frames every prompt of a headless run, kept in this one place.
 *
 * <p>A coding agent run headless has nobody to answer it: a question ends the run with nothing
 * done, and a plan written as prose changes no file. The preamble says so up front: no human
 * will answer; do not ask; make reasonable assumptions (and say which); change the files, do not
 * describe a plan. {@link #frame} puts it before the task, once (framing a framed prompt changes
 * nothing).
 *
 * <pre>{@code
 * RunSpec spec = RunSpec.builder("aider", "scripted").prompt(AutonomyPreamble.frame("Add a README"))...
 * }</pre>
 */
public final class AutonomyPreamble {
    /** The preamble, ending with the line that introduces the task. */
    public static final String TEXT = """
            You are running headless, as one step of an automated job.
            - No human will read or answer any question before this run has ended. Do not ask questions and do not wait for confirmation.
            - Where something is unclear, make a reasonable assumption, state it in one line, and go on.
            - Do the work: create and change the files in the current working directory. Do not stop at describing a plan.
            - When the task is done, end with a one-paragraph summary of what you changed.

            Task:
            """;

    private AutonomyPreamble() {}

    /** The prompt with the preamble before it; a prompt that already starts with it is returned as is. */
    public static String frame(String prompt) {
        Objects.requireNonNull(prompt, "prompt");
        return isFramed(prompt) ? prompt : TEXT + prompt.strip() + "\n";
    }

    /** Whether the prompt already starts with the preamble. */
    public static boolean isFramed(String prompt) {
        return prompt.startsWith(TEXT);
    }
}
