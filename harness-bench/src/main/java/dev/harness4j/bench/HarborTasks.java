package dev.harness4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.harness4j.api.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a task directory in Harbor's format, as it is: {@code task.toml} (timeouts, tags,
 * metadata), {@code instruction.md}, {@code tests/test.sh} (the verifier, run as {@code bash
 * /tests/test.sh} after the agent, judged by the reward it writes to {@code /logs/verifier}),
 * {@code solution/solve.sh} (what {@code oracle} runs) and {@code environment/}. What harness4j
 * makes of each:
 *
 * <ul>
 *   <li>{@code [agent] timeout_sec}: the agent's max runtime; {@code [verifier] timeout_sec}: the
 *       verifier's timeout (default {@link TaskVerify#DEFAULT_TIMEOUT}).
 *   <li>{@code [metadata] tags} and {@code [task] keywords}: the task's tags; the {@code
 *       [metadata]} and {@code [task]} tables and the schema version: its {@link BenchTask#metadata()}.
 *   <li>The repository the agent starts in: a git repository of {@code environment/}'s files
 *       (the build context), without its Dockerfile and compose files; empty when there are none.
 *   <li>{@code environment/Dockerfile}, {@code environment/docker-compose.yaml} or {@code
 *       [environment] docker_image}: the task needs that {@link TaskImage}, which only a container
 *       {@link TaskEnvironment} provides, unless {@code [metadata.harness4j] environment = "host"}
 *       says the task needs nothing the host lacks.
 *   <li>{@code [metadata.harness4j]}, harness4j's own keys: {@code environment} ({@code "host"}),
 *       {@code primary_metric} (the metric of {@code reward.json} that is the reward) and {@code
 *       pass_reward} (the reward a pass needs, default 1.0).
 * </ul>
 *
 * <p>Other keys are Harbor's and are read only as metadata, except {@code [verifier] env}, which
 * harness4j cannot honour yet and refuses.
 */
final class HarborTasks {
    /** The file that makes a directory a Harbor task. */
    static final String TASK_FILE = "task.toml";
    /** The verifier's command, as Harbor runs it. */
    static final String COMMAND = "bash /tests/test.sh";
    /** The repository's setup: the environment's build context without the files that build an image. */
    static final String SETUP = "if [ -d \"$TASK_DIR/environment\" ]; then cp -R \"$TASK_DIR/environment/.\" . &&"
            + " rm -f Dockerfile docker-compose.yaml docker-compose.yml; fi";
    private static final Set<String> OWN = Set.of("environment", "primary_metric", "pass_reward");
    private static final TomlMapper TOML = new TomlMapper();

    private HarborTasks() {}

    /** Reads one Harbor task directory; adds its problems (prefixed with its path) and returns it when it has none. */
    static Optional<BenchTask> load(Path dir, List<String> problems) {
        String where = dir.resolve(TASK_FILE).toString();
        List<String> own = new ArrayList<>();
        JsonNode n;
        try {
            n = TOML.readTree(dir.resolve(TASK_FILE).toFile());
        } catch (IOException e) {
            problems.add(where + ": not readable TOML (" + TaskSuite.firstLine(e.getMessage()) + ")");
            return Optional.empty();
        }
        String id = dir.getFileName().toString();
        String instruction = null;
        Path instructionFile = dir.resolve(TaskSuite.INSTRUCTION_FILE);
        try {
            instruction = Files.isRegularFile(instructionFile) ? Files.readString(instructionFile, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            own.add(TaskSuite.INSTRUCTION_FILE + " is not readable: " + e);
        }
        if (instruction == null || instruction.isBlank()) {
            own.add("no instruction: a Harbor task needs a non-empty " + TaskSuite.INSTRUCTION_FILE + " next to " + TASK_FILE);
        }
        Double agentTimeout = seconds(n.path("agent"), "agent.timeout_sec", own);
        Double verifierTimeout = seconds(n.path("verifier"), "verifier.timeout_sec", own);
        JsonNode env = n.path("verifier").path("env");
        if (!env.isMissingNode() && !(env.isObject() && env.isEmpty())) {
            own.add("[verifier] env is not supported by harness4j yet: remove it, or give the verifier what it needs another way");
        }
        Path tests = dir.resolve("tests");
        if (!Files.isRegularFile(tests.resolve("test.sh"))) {
            own.add("no tests/test.sh: Harbor's verifier entry point, which writes /logs/verifier/reward.txt or reward.json");
        }
        JsonNode h4j = n.path("metadata").path("harness4j");
        if (!h4j.isMissingNode() && !h4j.isObject()) {
            own.add("[metadata.harness4j] must be a table");
        }
        for (Iterator<String> it = h4j.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!OWN.contains(f)) {
                own.add("unknown key \"" + f + "\" in [metadata.harness4j] (known: " + new java.util.TreeSet<>(OWN) + ")");
            }
        }
        boolean host = false;
        JsonNode e = h4j.path("environment");
        if (!e.isMissingNode()) {
            if (!e.isTextual() || !e.textValue().equals("host")) {
                own.add("[metadata.harness4j] environment must be \"host\" (the task needs nothing the host lacks), was " + e);
            }
            host = true;
        }
        String primary = null;
        JsonNode pm = h4j.path("primary_metric");
        if (!pm.isMissingNode()) {
            if (!pm.isTextual() || pm.textValue().isBlank()) {
                own.add("[metadata.harness4j] primary_metric must name a metric of reward.json, was " + pm);
            } else {
                primary = pm.textValue();
            }
        }
        double passReward = 1.0;
        JsonNode pr = h4j.path("pass_reward");
        if (!pr.isMissingNode()) {
            if (!pr.isNumber() || pr.doubleValue() < 0 || pr.doubleValue() > 1) {
                own.add("[metadata.harness4j] pass_reward must be a number in [0, 1], was " + pr);
            } else {
                passReward = pr.doubleValue();
            }
        }
        TaskImage image = host ? null : image(dir, n.path("environment"), own);
        TaskSolution solution = null;
        Path solve = dir.resolve("solution/solve.sh");
        if (Files.isRegularFile(solve)) {
            try {
                String script = Files.readString(solve, StandardCharsets.UTF_8);
                if (script.isBlank()) {
                    own.add("solution/solve.sh is empty");
                } else {
                    solution = new TaskSolution(script, solve);
                }
            } catch (IOException x) {
                own.add("solution/solve.sh is not readable: " + x);
            }
        }
        List<String> tags = new ArrayList<>();
        strings(n.path("metadata").path("tags"), "[metadata] tags", tags, own);
        strings(n.path("task").path("keywords"), "[task] keywords", tags, own);
        if (!own.isEmpty()) {
            own.forEach(p -> problems.add(where + ": " + p));
            return Optional.empty();
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        for (String version : List.of("schema_version", "version")) {
            if (n.path(version).isValueNode()) {
                metadata.put(version, n.path(version).asText());
            }
        }
        flatten("task", n.path("task"), metadata);
        flatten("", n.path("metadata"), metadata);
        TaskVerify.Builder verify = TaskVerify.builder(COMMAND).files(tests).layout(TaskVerify.Layout.HARBOR)
                .primaryMetric(primary).passReward(passReward);
        if (verifierTimeout != null) {
            verify.timeout(Duration.ofMillis(Math.round(verifierTimeout * 1000)));
        }
        BenchTask.Builder task = BenchTask.builder(id).instruction(instruction).dir(dir).setup(SETUP).verify(verify.build())
                .tags(tags.stream().distinct().toArray(String[]::new)).metadata(metadata);
        if (agentTimeout != null) {
            task.limits(new Limits(null, Duration.ofMillis(Math.round(agentTimeout * 1000)), null));
        }
        if (solution != null) {
            task.solution(solution);
        }
        if (image != null) {
            task.image(image);
        }
        return Optional.of(task.build());
    }

    /** The image the task's environment needs, or null when it needs none. */
    private static TaskImage image(Path dir, JsonNode environment, List<String> problems) {
        for (String f : List.of("Dockerfile", "docker-compose.yaml", "docker-compose.yml")) {
            Path p = dir.resolve("environment").resolve(f);
            if (Files.isRegularFile(p)) {
                return new TaskImage(p, null);
            }
        }
        JsonNode image = environment.path("docker_image");
        if (image.isMissingNode()) {
            return null;
        }
        if (!image.isTextual() || image.textValue().isBlank()) {
            problems.add("[environment] docker_image must be an image name, was " + image);
            return null;
        }
        return new TaskImage(null, image.textValue());
    }

    private static Double seconds(JsonNode table, String name, List<String> problems) {
        JsonNode v = table.path("timeout_sec");
        if (v.isMissingNode()) {
            return null;
        }
        if (!v.isNumber() || !(v.doubleValue() > 0) || v.doubleValue() > 1e7) {
            problems.add(name + " must be a positive number of seconds, was " + v);
            return null;
        }
        return v.doubleValue();
    }

    private static void strings(JsonNode v, String name, List<String> into, List<String> problems) {
        if (v.isMissingNode()) {
            return;
        }
        if (!v.isArray()) {
            problems.add(name + " must be an array of strings, was " + v);
            return;
        }
        v.forEach(x -> {
            if (x.isTextual()) {
                into.add(x.textValue());
            } else {
                problems.add(name + " must be an array of strings, found " + x);
            }
        });
    }

    /** A table's values as dotted keys ({@code task.name}); arrays and inline tables as their JSON text. */
    private static void flatten(String prefix, JsonNode n, Map<String, String> into) {
        if (!n.isObject()) {
            return;
        }
        n.fields().forEachRemaining(e -> {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject()) {
                flatten(key, v, into);
            } else {
                into.put(key, v.isValueNode() ? v.asText() : v.toString());
            }
        });
    }
}
