package dev.harness4j.examples;

import dev.harness4j.bench.TaskSuite;
import dev.harness4j.core.PhaseReports;
import dev.harness4j.testkit.model.Scenario;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The bench main job's bundled suite ({@code src/main/resources/sample-suite}): four small tasks,
 * each with a verifier that really runs (a shell check, three Python scripts), and what each
 * scripted model answers to them. {@code scripted-a} solves greeting, multiply and mean but
 * writes {@code "debug": "false"} (a string) in config; {@code scripted-b} solves mean and
 * config, but forgets the comma in the greeting and returns {@code abs(a * b)} from multiply.
 */
final class SampleSuite {
    /** The suite's id, and the bench's. */
    static final String ID = "sample-suite";
    /** Its tasks. */
    static final List<String> TASKS = List.of("config", "greeting", "mean", "multiply");

    private SampleSuite() {}

    /** Copies the bundled suite into {@code <dir>/sample-suite} (replacing what is there) and loads it. */
    static TaskSuite extract(Path dir) {
        Path root = dir.resolve(ID);
        try (InputStream index = resource("files.txt")) {
            String[] files = new String(index.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String f : files) {
                if (f.isBlank()) {
                    continue;
                }
                Path target = root.resolve(f.strip());
                Files.createDirectories(target.getParent());
                try (InputStream in = resource(f.strip())) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not extract the sample suite into " + root, e);
        }
        return TaskSuite.load(root);
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = SampleSuite.class.getResourceAsStream("/" + ID + "/" + name);
        if (in == null) {
            throw new IOException("resource /" + ID + "/" + name + " is missing from the class path");
        }
        return in;
    }

    /**
     * What {@code model} answers to the task {@code taskId} in {@code harness}: one file written,
     * then the phase report the runner's prompt asks for ({@code .harness4j/report.json}), then a
     * line said (mini-swe-agent: its submit command). Claude Code's and Qwen Code's write tools
     * refuse to replace a file they have not read, so there the model removes the file with a shell
     * call first. A
     * harness without a write tool (Codex, mini-swe-agent) gets the writes as shell commands.
     */
    static Scenario scenario(String model, String taskId, String harness) {
        return scenario(model, taskId, harness, java.time.Duration.ZERO);
    }

    /**
     * {@link #scenario(String, String, String)}, the model first running {@code sleep} for {@code
     * pause} through the harness's shell tool (not for aider, which has none): the same answers,
     * slow enough to watch a run live. Whole seconds; zero adds nothing.
     */
    static Scenario scenario(String model, String taskId, String harness, java.time.Duration pause) {
        boolean a = !model.endsWith("-b");
        String[] file = switch (taskId) {
            case "greeting" -> new String[] {"greeting.txt", a ? "Hello, bench!\n" : "Hello bench!\n"};
            case "multiply" -> new String[] {"calc.py", "def add(a, b):\n    return a + b\n\n\ndef multiply(a, b):\n"
                    + (a ? "    return a * b\n" : "    return abs(a * b)\n")};
            case "mean" -> new String[] {"stats.py", "def mean(xs):\n    if not xs:\n        return 0\n"
                    + "    return sum(xs) / len(xs)\n"};
            case "config" -> new String[] {"config.json", a ? "{\"port\": 8080, \"debug\": \"false\"}\n"
                    : "{\"port\": 8080, \"debug\": false}\n"};
            default -> new String[] {"NOTES.md", "nothing scripted for " + taskId + "\n"};
        };
        String report = "{\"completed\": true, \"committed\": false, \"commit_message\": null, \"summary\": \"Wrote "
                + file[0] + ".\", \"next_phase_notes\": null, \"blockers\": []}";
        if (harness.equals("aider")) { // aider asks once: both files as whole-file blocks in one answer
            return Scenario.builder().say(file[0] + "\n```\n" + file[1] + "```\n" + PhaseReports.REPORT_FILE + "\n```\n"
                    + report + "\n```\n").usage(1200, 80, 0, 0).build();
        }
        Scenario.Builder b = Scenario.builder();
        if (pause.toSeconds() > 0) {
            b.shell("echo thinking; sleep " + pause.toSeconds()).usage(1000, 20, 0, 0);
        }
        boolean readBeforeWrite = harness.equals("claude-code") || harness.equals("qwen-code");
        if (readBeforeWrite && (taskId.equals("multiply") || taskId.equals("mean"))) {
            b.shell("rm -f " + file[0]).usage(1100, 30, 0, 0);
        }
        b.writeFile(file[0], file[1]).usage(1200, 80, 0, 0)
                .writeFile(PhaseReports.REPORT_FILE, report).usage(1250, 40, 0, 0);
        if (harness.equals("mini-swe-agent")) { // mini acts only through bash and ends by submitting
            return b.shell("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT").usage(1300, 25, 0, 0).build();
        }
        return b.say("Wrote " + file[0] + ".").usage(1300, 25, 0, 0).build();
    }
}
