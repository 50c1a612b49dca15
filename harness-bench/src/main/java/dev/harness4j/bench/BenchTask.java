package dev.harness4j.bench;

import dev.harness4j.api.Limits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One task of a bench: an id (used in reports and result paths), the instruction, where its
 * repository comes from (a repository and ref, or a setup command that builds one from the task's
 * own files, or else the plan's baseline), the agent's limits, how the result is verified, its
 * reference solution, and tags. Immutable; built in code with {@link #builder} or read from a directory by {@link
 * TaskSuite#load}.
 *
 * <pre>{@code
 * BenchTask t = BenchTask.builder("add-multiply")
 *         .instruction("Add multiply(a, b) to calc.py")
 *         .baseline(repo, "main")
 *         .verify(TaskVerify.of("python3 -m pytest -q"))
 *         .tags("python")
 *         .build();
 * }</pre>
 */
public final class BenchTask {
    private final String id;
    private final String instruction;
    private final Path repo;
    private final String ref;
    private final String setup;
    private final Path dir;
    private final Limits limits;
    private final TaskVerify verify;
    private final TaskSolution solution;
    private final List<String> tags;
    private final java.util.Map<String, String> metadata;
    private final TaskImage image;
    private final List<dev.harness4j.api.McpServer> mcpServers;

    private BenchTask(Builder b) {
        this.id = b.id;
        this.instruction = b.instruction;
        this.repo = b.repo;
        this.ref = b.ref;
        this.setup = b.setup;
        this.dir = b.dir;
        this.limits = b.limits;
        this.verify = b.verify;
        this.solution = b.solution;
        this.tags = List.copyOf(b.tags);
        this.metadata = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(b.metadata));
        this.image = b.image;
        this.mcpServers = List.copyOf(b.mcpServers);
    }

    /**
     * A task with a name and a prompt only: the plan's baseline, no verifier.
     *
     * @param name a short label, e.g. {@code hello-file}
     * @param prompt what the agent is asked to do (the runner adds its {@link
     *     dev.harness4j.core.AutonomyPreamble} when it runs the spec)
     */
    public static BenchTask of(String name, String prompt) {
        return builder(name).instruction(prompt).build();
    }

    /** A builder for a task with this id. */
    public static Builder builder(String id) {
        return new Builder(id);
    }

    /** The task's id. */
    public String id() {
        return id;
    }

    /** The task's id (its name in reports). */
    public String name() {
        return id;
    }

    /** What the agent is asked to do, unframed. */
    public String instruction() {
        return instruction;
    }

    /** The instruction, as the prompt of a run (framed when the spec is made). */
    public String prompt() {
        return instruction;
    }

    /** The repository to start from, when the task names one. */
    public Optional<Path> repo() {
        return Optional.ofNullable(repo);
    }

    /** The ref of {@link #repo()} to start from, when given. */
    public Optional<String> ref() {
        return Optional.ofNullable(ref);
    }

    /** The command that builds the task's repository ({@code sh -c} in an empty directory), when given. */
    public Optional<String> setup() {
        return Optional.ofNullable(setup);
    }

    /** The task's directory (its {@code task.json}, setup and verifier files), when it has one. */
    public Optional<Path> dir() {
        return Optional.ofNullable(dir);
    }

    /** The agent's limits for this task, when it sets them (else the plan's). */
    public Optional<Limits> limits() {
        return Optional.ofNullable(limits);
    }

    /** How the result is verified, when it is. */
    public Optional<TaskVerify> verify() {
        return Optional.ofNullable(verify);
    }

    /** The reference solution the {@code oracle} harness runs, when the task has one. */
    public Optional<TaskSolution> solution() {
        return Optional.ofNullable(solution);
    }

    public List<String> tags() {
        return tags;
    }

    /**
     * What the task says about itself besides what harness4j runs (a Harbor task's {@code
     * [metadata]} and {@code [task]} tables: {@code difficulty}, {@code task.name}, ...), flattened
     * to dotted keys, in the file's order.
     */
    public java.util.Map<String, String> metadata() {
        return metadata;
    }

    /** The MCP servers every run of this task is given ({@code task.json}'s {@code mcp_servers}), in order. */
    public List<dev.harness4j.api.McpServer> mcpServers() {
        return mcpServers;
    }

    /** The container image the task's environment needs, when it needs one ({@link TaskEnvironment} decides who runs it). */
    public Optional<TaskImage> image() {
        return Optional.ofNullable(image);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BenchTask t && id.equals(t.id) && instruction.equals(t.instruction)
                && Objects.equals(repo, t.repo) && Objects.equals(ref, t.ref) && Objects.equals(setup, t.setup)
                && Objects.equals(dir, t.dir) && Objects.equals(limits, t.limits) && Objects.equals(verify, t.verify)
                && Objects.equals(solution, t.solution) && tags.equals(t.tags)
                && metadata.equals(t.metadata) && Objects.equals(image, t.image);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, instruction, repo, ref, setup, dir, limits, verify, solution, tags, metadata, image);
    }

    @Override
    public String toString() {
        return "BenchTask[" + id + (verify != null ? ", verified" : "") + "]";
    }

    /** Builds a {@link BenchTask}. */
    public static final class Builder {
        private final String id;
        private String instruction;
        private Path repo;
        private String ref;
        private String setup;
        private Path dir;
        private Limits limits;
        private TaskVerify verify;
        private TaskSolution solution;
        private final List<String> tags = new ArrayList<>();
        private final java.util.Map<String, String> metadata = new java.util.LinkedHashMap<>();
        private TaskImage image;
        private final List<dev.harness4j.api.McpServer> mcpServers = new ArrayList<>();

        private Builder(String id) {
            Objects.requireNonNull(id, "id");
            if (id.isBlank() || !id.equals(id.strip())) {
                throw new IllegalArgumentException("a task id must be non-blank without surrounding spaces, was '" + id + "'");
            }
            this.id = id;
        }

        /** What the agent is asked to do; required. */
        public Builder instruction(String value) {
            Objects.requireNonNull(value, "instruction");
            if (value.isBlank()) {
                throw new IllegalArgumentException("task " + id + ": the instruction is blank");
            }
            this.instruction = value;
            return this;
        }

        /** The repository to start from, and its ref ({@code null}: its current branch). */
        public Builder baseline(Path repository, String refName) {
            this.repo = Objects.requireNonNull(repository, "repository").toAbsolutePath();
            this.ref = refName;
            return this;
        }

        /** A command building the repository in an empty directory (run with {@code sh -c}, {@code TASK_DIR} set). */
        public Builder setup(String command) {
            this.setup = Objects.requireNonNull(command, "setup");
            return this;
        }

        /** The task's directory: setup runs with it as {@code TASK_DIR}; verifier files are relative to it. */
        public Builder dir(Path value) {
            this.dir = Objects.requireNonNull(value, "dir").toAbsolutePath();
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        public Builder verify(TaskVerify value) {
            this.verify = Objects.requireNonNull(value, "verify");
            return this;
        }

        /** The reference solution the {@code oracle} harness runs ({@link SuiteCheck} checks the verifier with it). */
        public Builder solution(TaskSolution value) {
            this.solution = Objects.requireNonNull(value, "solution");
            return this;
        }

        public Builder tags(String... values) {
            for (String t : values) {
                tags.add(Objects.requireNonNull(t, "tag"));
            }
            return this;
        }

        /** Adds what the task says about itself ({@link BenchTask#metadata()}). */
        public Builder metadata(java.util.Map<String, String> values) {
            values.forEach((k, v) -> metadata.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v, "value")));
            return this;
        }

        /** The container image the task needs ({@link BenchTask#image()}). */
        public Builder image(TaskImage value) {
            this.image = Objects.requireNonNull(value, "image");
            return this;
        }

        /** Adds an MCP server every run of the task is given ({@code RunSpec.mcpServer}); names must differ. */
        public Builder mcpServer(dev.harness4j.api.McpServer value) {
            Objects.requireNonNull(value, "value");
            if (mcpServers.stream().anyMatch(m -> m.name().equals(value.name()))) {
                throw new IllegalArgumentException("task " + id + " names two MCP servers '" + value.name() + "'");
            }
            mcpServers.add(value);
            return this;
        }

        /** Builds the task; an instruction is required, and a repository and a setup exclude each other. */
        public BenchTask build() {
            if (instruction == null) {
                throw new IllegalArgumentException("task " + id + " has no instruction");
            }
            if (repo != null && setup != null) {
                throw new IllegalArgumentException("task " + id + " has both a baseline repository and a setup command; give one");
            }
            return new BenchTask(this);
        }
    }
}
