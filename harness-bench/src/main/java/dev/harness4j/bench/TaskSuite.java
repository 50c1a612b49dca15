package dev.harness4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A set of {@link BenchTask}s with unique ids: a directory with one sub-directory per task, or
 * built in code. A task directory holds {@code task.json}:
 *
 * <pre>{@code
 * {
 *   "id": "add-multiply",                      // default: the directory's name
 *   "instruction": "Add multiply(a, b) ...",   // or a file instruction.md next to task.json
 *   "setup": "sh \"$TASK_DIR/setup.sh\"",      // builds the repository in an empty dir; or:
 *   "baseline": {"repo": "../../repos/calc", "ref": "main"},   // relative to the task dir
 *   "limits": {"max_runtime_seconds": 300, "inactivity_timeout_seconds": 120, "max_turns": 30},
 *   "verify": {"command": "python3 verify/test_calc.py", "timeout_seconds": 60, "files": "verify",
 *              "primary_metric": "tests", "pass_reward": 1.0},    // both optional: see TaskVerify
 *   "solution": "solution/solve.sh",           // or {"command": "..."}: what the oracle runs
 *   "tags": ["python"],
 *   "mcp_servers": [{"name": "notes", "command": "python3", "args": ["${TASK_DIR}/mcp/notes.py"]},
 *                   {"name": "docs", "url": "http://127.0.0.1:8931/mcp"}]   // given to every agent's run
 * }
 * }</pre>
 *
 * <p>A sub-directory with a {@code task.toml} instead is a task in Harbor's format, read as it is
 * ({@link HarborTasks}: {@code instruction.md}, {@code tests/test.sh}, {@code solution/solve.sh},
 * {@code environment/}); a suite may mix both, and a directory that is one Harbor task is a suite
 * of that task.
 *
 * <p>{@code verify.files} (default {@code verify} when that directory exists) is copied into the
 * workspace only after the agent has finished. {@code solution} is the task's reference solution
 * ({@link TaskSolution}): a shell script file inside the task dir, or inline commands; it is
 * read when the suite is loaded, never shown to an agent, and run by the {@code oracle}
 * reference harness ({@link SuiteCheck}). {@code mcp_servers} ({@link TaskMcpServers}) are given to
 * every agent's run of the task; a plan refuses a harness without MCP. Every problem in every task (unreadable JSON, an
 * unknown field, no instruction, no verify command, two tasks with one id, ...) is reported at
 * once in one {@link BenchPlanException}.
 *
 * <pre>{@code
 * TaskSuite suite = TaskSuite.load(Path.of("suites/python-basics"));
 * BenchPlan plan = bench.plan().suite(suite).harnesses("claude-code").provider("anthropic").trials(3).build();
 * }</pre>
 */
public final class TaskSuite {
    /** The task file in each task directory. */
    public static final String TASK_FILE = "task.json";
    /** The instruction file used when {@code task.json} has no {@code instruction}. */
    public static final String INSTRUCTION_FILE = "instruction.md";

    private static final Set<String> FIELDS = Set.of("id", "instruction", "baseline", "setup", "limits", "verify", "solution",
            "tags", "mcp_servers");
    private static final Set<String> SOLUTION_FIELDS = Set.of("command");
    private static final Set<String> BASELINE_FIELDS = Set.of("repo", "ref");
    private static final Set<String> LIMIT_FIELDS = Set.of("max_runtime_seconds", "inactivity_timeout_seconds", "max_turns");
    private static final Set<String> VERIFY_FIELDS = Set.of("command", "timeout_seconds", "files", "primary_metric",
            "pass_reward");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final List<BenchTask> tasks;

    private TaskSuite(String id, List<BenchTask> tasks) {
        this.id = id;
        this.tasks = List.copyOf(tasks);
    }

    /**
     * A suite of tasks built in code.
     *
     * @throws BenchPlanException when two tasks share an id
     */
    public static TaskSuite of(String id, List<BenchTask> tasks) {
        Objects.requireNonNull(id, "id");
        List<String> problems = new ArrayList<>();
        duplicates(tasks, problems);
        if (!problems.isEmpty()) {
            throw new BenchPlanException(problems);
        }
        return new TaskSuite(id, tasks);
    }

    /**
     * Reads a suite from a directory: each sub-directory with a {@code task.json} (or a Harbor
     * {@code task.toml}) is a task; the suite's id is the directory's name.
     *
     * @throws BenchPlanException listing every problem of every task
     */
    public static TaskSuite load(Path dir) {
        Objects.requireNonNull(dir, "dir");
        Path root = dir.toAbsolutePath().normalize();
        List<String> problems = new ArrayList<>();
        List<BenchTask> tasks = new ArrayList<>();
        List<Path> taskDirs = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            s.filter(p -> Files.isDirectory(p) && !p.getFileName().toString().startsWith(".")).sorted()
                    .forEach(taskDirs::add);
        } catch (IOException e) {
            throw new BenchPlanException(List.of("the suite directory " + root + " cannot be read (" + e
                    + "): give a directory with one sub-directory per task"));
        }
        if (Files.isRegularFile(root.resolve(HarborTasks.TASK_FILE))) {
            taskDirs = List.of(root); // one Harbor task given by itself: a suite of one
        }
        for (Path t : taskDirs) {
            if (Files.isRegularFile(t.resolve(TASK_FILE))) {
                loadTask(t, problems).ifPresent(tasks::add);
            } else if (Files.isRegularFile(t.resolve(HarborTasks.TASK_FILE))) {
                HarborTasks.load(t, problems).ifPresent(tasks::add);
            }
        }
        if (tasks.isEmpty() && problems.isEmpty()) {
            problems.add("the suite " + root + " has no task: add a sub-directory with a " + TASK_FILE + " (or a Harbor"
                    + " task's " + HarborTasks.TASK_FILE + ")");
        }
        duplicates(tasks, problems);
        if (!problems.isEmpty()) {
            throw new BenchPlanException(problems);
        }
        return new TaskSuite(root.getFileName().toString(), tasks);
    }

    /** Reads one task directory; adds its problems (prefixed with its path) and returns it when it has none. */
    static Optional<BenchTask> loadTask(Path dir, List<String> problems) {
        String where = dir.resolve(TASK_FILE).toString();
        List<String> own = new ArrayList<>();
        JsonNode n;
        try {
            n = JSON.readTree(dir.resolve(TASK_FILE).toFile());
        } catch (IOException e) {
            problems.add(where + ": not readable JSON (" + firstLine(e.getMessage()) + ")");
            return Optional.empty();
        }
        if (!(n instanceof ObjectNode)) {
            problems.add(where + ": must be a JSON object");
            return Optional.empty();
        }
        unknown(n, FIELDS, "", own);
        String id = text(n, "id", own);
        if (id == null) {
            id = dir.getFileName().toString();
        }
        String instruction = text(n, "instruction", own);
        if (instruction == null && Files.isRegularFile(dir.resolve(INSTRUCTION_FILE))) {
            try {
                instruction = Files.readString(dir.resolve(INSTRUCTION_FILE), StandardCharsets.UTF_8);
            } catch (IOException e) {
                own.add(INSTRUCTION_FILE + " is not readable: " + e);
            }
        }
        if (instruction == null || instruction.isBlank()) {
            own.add("no instruction: add \"instruction\" or a non-empty " + INSTRUCTION_FILE);
        }
        String setup = text(n, "setup", own);
        Path repo = null;
        String ref = null;
        JsonNode b = n.get("baseline");
        if (b != null && !b.isNull()) {
            unknown(b, BASELINE_FIELDS, "baseline.", own);
            String r = text(b, "repo", own);
            ref = text(b, "ref", own);
            if (r == null) {
                own.add("baseline needs \"repo\" (a git repository, relative to the task dir)");
            } else {
                repo = dir.resolve(r).normalize();
                if (!Files.exists(repo.resolve(".git"))) {
                    own.add("baseline.repo " + repo + " is not a git repository");
                }
            }
            if (setup != null) {
                own.add("give either \"baseline\" or \"setup\", not both");
            }
        }
        Limits limits = null;
        JsonNode l = n.get("limits");
        if (l != null && !l.isNull()) {
            unknown(l, LIMIT_FIELDS, "limits.", own);
            Long runtime = positive(l, "max_runtime_seconds", own);
            Long inactivity = positive(l, "inactivity_timeout_seconds", own);
            Long turns = positive(l, "max_turns", own);
            limits = new Limits(inactivity == null ? null : Duration.ofSeconds(inactivity),
                    runtime == null ? null : Duration.ofSeconds(runtime), turns == null ? null : turns.intValue());
        }
        TaskVerify verify = null;
        JsonNode v = n.get("verify");
        if (v == null || v.isNull()) {
            own.add("no verify command: add \"verify\": {\"command\": \"...\"} (it runs in the workspace after the agent)");
        } else {
            unknown(v, VERIFY_FIELDS, "verify.", own);
            String command = text(v, "command", own);
            Long timeout = positive(v, "timeout_seconds", own);
            String files = text(v, "files", own);
            String primary = text(v, "primary_metric", own);
            Double passReward = null;
            JsonNode pr = v.get("pass_reward");
            if (pr != null && !pr.isNull()) {
                if (!pr.isNumber() || pr.doubleValue() < 0 || pr.doubleValue() > 1) {
                    own.add("\"verify.pass_reward\" must be a number in [0, 1], was " + pr);
                } else {
                    passReward = pr.doubleValue();
                }
            }
            if (primary != null && primary.isBlank()) {
                own.add("\"verify.primary_metric\" is blank: name a metric the verifier writes, or leave it out");
                primary = null;
            }
            Path filesDir = null;
            if (files != null) {
                filesDir = dir.resolve(files).normalize();
                if (!filesDir.startsWith(dir) || !Files.isDirectory(filesDir)) {
                    own.add("verify.files " + files + " is not a directory inside the task dir");
                }
            } else if (Files.isDirectory(dir.resolve("verify"))) {
                filesDir = dir.resolve("verify");
            }
            if (command == null || command.isBlank()) {
                own.add("no verify command: add \"verify\": {\"command\": \"...\"}");
            } else {
                verify = TaskVerify.builder(command).timeout(timeout == null ? TaskVerify.DEFAULT_TIMEOUT
                        : Duration.ofSeconds(timeout)).files(filesDir).primaryMetric(primary).passReward(passReward).build();
            }
        }
        TaskSolution solution = solution(dir, n.get("solution"), own);
        List<String> tags = new ArrayList<>();
        JsonNode t = n.get("tags");
        if (t != null && !t.isNull()) {
            if (!t.isArray()) {
                own.add("tags must be an array of strings");
            } else {
                t.forEach(x -> {
                    if (x.isTextual()) {
                        tags.add(x.textValue());
                    } else {
                        own.add("tags must be an array of strings, found " + x);
                    }
                });
            }
        }
        List<dev.harness4j.api.McpServer> mcp = TaskMcpServers.read(dir, n.get("mcp_servers"), own);
        if (!own.isEmpty()) {
            own.forEach(p -> problems.add(where + ": " + p));
            return Optional.empty();
        }
        BenchTask.Builder task = BenchTask.builder(id).instruction(instruction).dir(dir).verify(verify)
                .tags(tags.toArray(String[]::new));
        mcp.forEach(task::mcpServer);
        if (repo != null) {
            task.baseline(repo, ref);
        }
        if (setup != null) {
            task.setup(setup);
        }
        if (limits != null) {
            task.limits(limits);
        }
        if (solution != null) {
            task.solution(solution);
        }
        return Optional.of(task.build());
    }

    /** The task's {@code solution}: a script file inside the task dir, or {@code {"command": "..."}}; null when none. */
    private static TaskSolution solution(Path dir, JsonNode s, List<String> problems) {
        if (s == null || s.isNull()) {
            return null;
        }
        if (s.isTextual()) {
            Path file = dir.resolve(s.textValue()).normalize();
            if (!file.startsWith(dir) || !Files.isRegularFile(file)) {
                problems.add("solution " + s.textValue() + " is not a file inside the task dir (give a shell script's"
                        + " path relative to the task dir, or {\"command\": \"...\"})");
                return null;
            }
            try {
                String script = Files.readString(file, StandardCharsets.UTF_8);
                if (script.isBlank()) {
                    problems.add("solution " + s.textValue() + " is empty");
                    return null;
                }
                return new TaskSolution(script, file);
            } catch (IOException e) {
                problems.add("solution " + s.textValue() + " is not readable: " + e);
                return null;
            }
        }
        if (!s.isObject()) {
            problems.add("solution must be a script's path (a string) or {\"command\": \"...\"}, was " + s);
            return null;
        }
        unknown(s, SOLUTION_FIELDS, "solution.", problems);
        String command = text(s, "command", problems);
        if (command == null || command.isBlank()) {
            problems.add("solution needs a non-blank \"command\"");
            return null;
        }
        return TaskSolution.of(command);
    }

    /** The suite's id (a loaded suite's: its directory's name). */
    public String id() {
        return id;
    }

    /** The tasks, in order (a loaded suite's: by directory name). */
    public List<BenchTask> tasks() {
        return tasks;
    }

    /** The task with this id, when there is one. */
    public Optional<BenchTask> task(String taskId) {
        return tasks.stream().filter(t -> t.id().equals(taskId)).findFirst();
    }

    private static void duplicates(List<BenchTask> tasks, List<String> problems) {
        Map<String, Integer> seen = new HashMap<>();
        Map<String, List<String>> where = new LinkedHashMap<>();
        for (BenchTask t : tasks) {
            seen.merge(t.id(), 1, Integer::sum);
            where.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(t.dir().map(Path::toString).orElse("(in code)"));
        }
        seen.forEach((id, count) -> {
            if (count > 1) {
                problems.add("two tasks have the id '" + id + "' (" + String.join(", ", where.get(id))
                        + "): task ids must be unique in a suite");
            }
        });
    }

    private static void unknown(JsonNode n, Set<String> known, String prefix, List<String> problems) {
        if (!n.isObject()) {
            problems.add((prefix.isEmpty() ? "the task" : prefix.substring(0, prefix.length() - 1)) + " must be an object");
            return;
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add("unknown field \"" + prefix + f + "\" (known: " + new java.util.TreeSet<>(known) + ")");
            }
        }
    }

    private static String text(JsonNode n, String field, List<String> problems) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            problems.add("\"" + field + "\" must be a string");
            return null;
        }
        return v.textValue();
    }

    private static Long positive(JsonNode n, String field, List<String> problems) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.canConvertToLong() || !v.isIntegralNumber() || v.longValue() < 1) {
            problems.add("\"" + field + "\" must be a positive whole number, was " + v);
            return null;
        }
        return v.longValue();
    }

    /** The first line of a message ({@code ""} for none): parsers' messages go on with the location. */
    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
