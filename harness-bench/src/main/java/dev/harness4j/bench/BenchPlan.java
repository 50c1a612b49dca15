package dev.harness4j.bench;

import dev.harness4j.api.Isolation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.reference.ReferenceHarnesses;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.RunQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A bench matrix, harness × model × provider × task, validated when it is built: an unknown
 * harness, an uninstalled CLI, a provider that cannot be resolved (or has no model), a harness ×
 * provider pair the adapter refuses ({@link dev.harness4j.api.Harness#unsupported}: an API style
 * it does not speak, the CLI's own login), a model the provider's catalogue does not list, a
 * missing baseline — every problem is listed in one {@link BenchPlanException} and nothing is
 * queued ({@link Preflight}). A harness that {@linkplain dev.harness4j.api.Harness#needsProvider()
 * needs no provider} (the reference harnesses {@code nop} and {@code oracle}) gets one combo per
 * task and trial, labelled provider and model {@code none}, whatever providers and models the plan
 * names; a plan of such harnesses only needs no provider. A model no catalogue can confirm is a {@link #warnings() warning}.
 * Harnesses, installations and providers are the {@link HarnessRunner}'s, resolved the way its
 * runs resolve them. Combos are de-duplicated (by harness, provider, resolved model and task)
 * and ordered so that consecutive runs hit different providers where the matrix allows it.
 *
 * <pre>{@code
 * BenchPlan plan = BenchPlan.builder(runner)
 *         .harnesses("claude-code", "opencode", "aider")
 *         .provider("scripted").models("scripted-a", "scripted-b")
 *         .task("hello", "Create hello.txt containing hello")
 *         .baseline(repo)
 *         .build();                                   // throws BenchPlanException, listing every problem
 * System.out.println(plan.matrix(runner.results(), queue));
 * List<QueueEntry> queued = plan.enqueue(queue, runner.results());  // skips combos with a result or an entry
 * }</pre>
 */
public final class BenchPlan {
    private final List<Combo> combos;
    private final Path baseline;
    private final String ref;
    private final Isolation isolation;
    private final Limits limits;
    private final Map<String, String> options;
    private final boolean force;
    /** The runner's served-model policy: under STRICT a cached success not served by its model runs again. */
    private final dev.harness4j.core.Requirement servedModel;
    private final String id;
    private final int trials;
    private final Map<String, BenchTask> byLabel = new LinkedHashMap<>();
    private final Map<String, Path> setupRepos;
    private final List<String> warnings;

    private BenchPlan(List<Combo> combos, Builder b, Map<String, Path> setupRepos, List<String> warnings) {
        this.combos = List.copyOf(combos);
        this.warnings = List.copyOf(warnings);
        this.id = b.id;
        this.trials = b.trials;
        this.setupRepos = Map.copyOf(setupRepos);
        combos.forEach(c -> byLabel.putIfAbsent(c.label(), c.task()));
        this.baseline = b.baseline;
        this.ref = b.ref;
        this.isolation = b.isolation;
        this.limits = b.limits;
        this.options = Map.copyOf(b.options);
        this.force = b.force;
        this.servedModel = b.runner.servedModelRequirement();
    }

    /** A builder that validates against the runner's adapters, installations and providers. */
    public static Builder builder(HarnessRunner runner) {
        return new Builder(runner);
    }

    /**
     * What the plan could not check and may fail at run time (a model no catalogue lists, say),
     * one sentence each; also printed by {@link #matrix}. Problems are never warnings: they make
     * {@link Builder#build()} throw.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** Every combo, in run order. */
    public List<Combo> combos() {
        return combos;
    }

    public boolean force() {
        return force;
    }

    /** The bench's id, when it has one: results are labelled {@code <id>/<task id>}. */
    public java.util.Optional<String> id() {
        return java.util.Optional.ofNullable(id);
    }

    /** How many trials each task, harness and model gets. */
    public int trials() {
        return trials;
    }

    /** The task whose results carry this label ({@link Combo#label()}), when it is in this plan. */
    public java.util.Optional<BenchTask> taskByLabel(String label) {
        return java.util.Optional.ofNullable(label == null ? null : byLabel.get(label));
    }

    /** The task labels of this plan, in order. */
    public Set<String> labels() {
        return java.util.Collections.unmodifiableSet(byLabel.keySet());
    }

    /**
     * The combos still to run: those with neither a result nor an entry in the queue that can
     * still run (queued, waiting for a retry, or running — a run whose owner died is queued
     * again by the queue's recovery). With {@link Builder#force}, combos with a result run again,
     * but a combo already in the queue is never queued twice. When the runner requires the
     * served model strictly ({@link HarnessRunner.Builder#requireServedModel}), a result is
     * checked again under that policy: one that succeeded with a served model other than {@code
     * match} (written under a laxer policy) no longer counts, and its combo runs again.
     *
     * @param queue the queue to consult, or {@code null} to look at results only
     */
    public List<Combo> toRun(ResultIndex results, RunQueue queue) {
        Objects.requireNonNull(results, "results");
        Set<List<Object>> pending = pendingKeys(queue);
        Set<List<Object>> done = new HashSet<>();
        if (!force) {
            for (dev.harness4j.core.StoredResult r : results.all()) {
                if (r.task() != null && byLabel.containsKey(r.task()) && stillPasses(r)) {
                    done.add(Arrays.asList(r.harness(), r.provider(), r.resolvedModel(), r.task(), r.trial()));
                }
            }
        }
        return combos.stream().filter(c -> !pending.contains(key(c)) && !done.contains(key(c))).toList();
    }

    /** Whether a cached result stands under the runner's served-model policy (see {@link #toRun}). */
    private boolean stillPasses(dev.harness4j.core.StoredResult r) {
        if (servedModel != dev.harness4j.core.Requirement.STRICT) {
            return true;
        }
        try {
            if (!dev.harness4j.api.Outcome.fromWireName(r.outcome()).isSuccess()) {
                return true; // a failure stays one: the policy can only turn successes into failures
            }
            return "match".equals(MetaReader.read(Files.readAllBytes(r.metaFile())).verdict);
        } catch (java.io.IOException | IllegalArgumentException e) {
            return true; // unreadable or unknown: the index already listed it; nothing to judge it by
        }
    }

    /**
     * The spec of one combo; its prompt is the task's as written: the runner frames it (its
     * autonomy preamble and phase-report contract, unless the runner is built without them).
     */
    public RunSpec spec(Combo c) {
        BenchTask t = c.task();
        Path repo = setupRepos.containsKey(t.id()) ? setupRepos.get(t.id()) : t.repo().orElse(baseline);
        String taskRef = setupRepos.containsKey(t.id()) ? null : t.repo().isPresent() ? t.ref().orElse(null) : ref;
        RunSpec.Builder b = RunSpec.builder(c.harness(), c.provider()).model(c.resolvedModel())
                .prompt(t.prompt()).baseline(repo).ref(taskRef)
                .isolation(isolation).limits(t.limits().orElse(limits)).task(c.label()).trial(c.trial());
        options.forEach(b::option);
        if (!ReferenceHarnesses.isReference(c.harness())) {
            t.mcpServers().forEach(b::mcpServer);
        }
        if (ReferenceHarnesses.ORACLE.equals(c.harness())) {
            t.solution().ifPresent(sol -> b.option(ReferenceHarnesses.SCRIPT_OPTION, sol.script()));
        }
        return b.build();
    }

    /** Queues the combos still to run (see {@link #toRun}), in run order. */
    public List<QueueEntry> enqueue(RunQueue queue, ResultIndex results) {
        Objects.requireNonNull(queue, "queue");
        List<RunSpec> specs = toRun(results, queue).stream().map(this::spec).toList();
        return specs.isEmpty() ? List.of() : queue.enqueue(specs);
    }

    /** The planned matrix as text: one line per combo, marking those skipped for a result or a queue entry. */
    public String matrix(ResultIndex results, RunQueue queue) {
        StringBuilder sb = new StringBuilder();
        Set<List<Object>> pending = pendingKeys(queue);
        List<Combo> run = toRun(results, queue);
        long queued = combos.stream().filter(c -> pending.contains(key(c))).count();
        sb.append(String.format("bench plan%s: %d runs, %d to run%s%s%n", id == null ? "" : " " + id, combos.size(), run.size(),
                queued > 0 ? ", " + queued + " already queued (left from an earlier bench)" : "",
                force ? " (force: combos with a result run again)" : ""));
        warnings.forEach(w -> sb.append("  warning: ").append(w).append(System.lineSeparator()));
        sb.append(String.format("  %-3s %-14s %-12s %-28s %-24s %-5s %s%n", "#", "harness", "provider", "model", "task",
                "trial", ""));
        int i = 1;
        for (Combo c : combos) {
            String model = c.model() == null ? c.resolvedModel() + " (default)" : c.resolvedModel();
            String note = run.contains(c) ? "" : pending.contains(key(c)) ? "queued: runs from the earlier entry"
                    : "skip: result exists (use --force to run again)";
            sb.append(String.format("  %-3d %-14s %-12s %-28s %-24s %-5d %s%n", i++, c.harness(), c.provider(), model,
                    c.task().name(), c.trial(), note));
        }
        return sb.toString();
    }

    /** The keys of the queue's entries that can still run. */
    private static Set<List<Object>> pendingKeys(RunQueue queue) {
        Set<List<Object>> keys = new HashSet<>();
        if (queue != null) {
            for (QueueEntry e : queue.entries()) {
                if (!e.state().isTerminal()) {
                    RunSpec s = e.spec();
                    keys.add(Arrays.asList(s.harness(), s.provider(), s.model(), s.task(), s.trial()));
                }
            }
        }
        return keys;
    }

    private static List<Object> key(Combo c) {
        return Arrays.asList(c.harness(), c.provider(), c.resolvedModel(), c.label(), c.trial());
    }

    /**
     * Orders combos round-robin over their providers, and within a provider round-robin over its
     * models (stable otherwise), so consecutive runs hit different providers, then different
     * models, wherever the counts allow.
     */
    static List<Combo> interleaveProviders(List<Combo> in) {
        Map<String, List<Combo>> byProvider = new LinkedHashMap<>();
        for (Combo c : in) {
            byProvider.computeIfAbsent(c.provider(), k -> new ArrayList<>()).add(c);
        }
        Map<String, List<Combo>> interleaved = new LinkedHashMap<>();
        byProvider.forEach((p, list) -> interleaved.put(p, roundRobin(list, Combo::resolvedModel)));
        return roundRobin(interleaved.values().stream().flatMap(List::stream).toList(), Combo::provider);
    }

    private static List<Combo> roundRobin(List<Combo> in, java.util.function.Function<Combo, String> key) {
        Map<String, Deque<Combo>> groups = new LinkedHashMap<>();
        for (Combo c : in) {
            groups.computeIfAbsent(key.apply(c), k -> new ArrayDeque<>()).add(c);
        }
        List<Combo> out = new ArrayList<>(in.size());
        while (out.size() < in.size()) {
            for (Deque<Combo> q : groups.values()) {
                if (!q.isEmpty()) {
                    out.add(q.poll());
                }
            }
        }
        return out;
    }

    /** Builds and validates a {@link BenchPlan}. */
    public static final class Builder {
        private final HarnessRunner runner;
        private final Set<String> harnesses = new LinkedHashSet<>();
        private final Set<String> providers = new LinkedHashSet<>();
        private final List<String> models = new ArrayList<>();
        private final Map<String, BenchTask> tasks = new LinkedHashMap<>();
        private final Set<String> duplicateIds = new LinkedHashSet<>();
        private Path baseline;
        private String ref;
        private Isolation isolation = Isolation.CLONE;
        private Limits limits = Limits.NONE;
        private final Map<String, String> options = new LinkedHashMap<>();
        private boolean force;
        private String id;
        private int trials = 1;
        private TaskEnvironment environment = TaskEnvironment.host();

        private Builder(HarnessRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        public Builder harnesses(String... ids) {
            for (String id : ids) {
                harnesses.add(Objects.requireNonNull(id, "harness").strip());
            }
            return this;
        }

        public Builder provider(String name) {
            providers.add(Objects.requireNonNull(name, "provider").strip());
            return this;
        }

        /** Models to request; none means each provider's default model. */
        public Builder models(String... ids) {
            for (String id : ids) {
                String m = Objects.requireNonNull(id, "model").strip();
                if (!models.contains(m)) {
                    models.add(m);
                }
            }
            return this;
        }

        /** A task with a name and a prompt, on the plan's baseline, not verified. */
        public Builder task(String name, String prompt) {
            return task(BenchTask.of(name, prompt));
        }

        /** A task; a second task with the same id is a problem reported by {@link #build()}. */
        public Builder task(BenchTask task) {
            Objects.requireNonNull(task, "task");
            if (tasks.putIfAbsent(task.id(), task) != null && !tasks.get(task.id()).equals(task)) {
                duplicateIds.add(task.id());
            }
            return this;
        }

        /** Every task of a suite; the suite's id becomes the bench's id unless {@link #id} sets one. */
        public Builder suite(TaskSuite suite) {
            Objects.requireNonNull(suite, "suite");
            suite.tasks().forEach(this::task);
            if (id == null) {
                id = suite.id();
            }
            return this;
        }

        /**
         * The bench's id: its results are labelled {@code <id>/<task id>}, so running the same id
         * again resumes it (finished trials are skipped) and two benches in one state dir stay apart.
         */
        public Builder id(String value) {
            Objects.requireNonNull(value, "id");
            if (value.isBlank() || value.contains("/")) {
                throw new IllegalArgumentException("a bench id must be non-blank without '/', was '" + value + "'");
            }
            this.id = value;
            return this;
        }

        /** How many trials per task, harness and model, each its own run and result; default 1. */
        public Builder trials(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("trials must be >= 1, was " + value);
            }
            this.trials = value;
            return this;
        }

        public Builder baseline(Path repo) {
            this.baseline = Objects.requireNonNull(repo, "baseline").toAbsolutePath();
            return this;
        }

        /** The branch or commit of the baseline to start from ({@code null}: its current branch). */
        public Builder ref(String value) {
            this.ref = value;
            return this;
        }

        public Builder isolation(Isolation value) {
            this.isolation = Objects.requireNonNull(value, "isolation");
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        public Builder option(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Where the tasks run (default {@link TaskEnvironment#host()}): a task it refuses (one that
         * needs a container image, on the host) is a problem of the plan.
         */
        public Builder environment(TaskEnvironment value) {
            this.environment = Objects.requireNonNull(value, "environment");
            return this;
        }

        /** Whether combos that already have a result run again (default false). */
        public Builder force(boolean value) {
            this.force = value;
            return this;
        }

        /** Validates everything, collecting every problem, and builds the plan. */
        public BenchPlan build() {
            List<String> problems = new ArrayList<>();
            if (harnesses.isEmpty()) {
                problems.add("no harness: name at least one (--harness claude-code,opencode,aider); known: " + runner.registry().ids());
            }
            List<String> modelHarnesses = new ArrayList<>();
            List<String> providerless = new ArrayList<>();
            for (String h : harnesses) {
                boolean none = runner.registry().find(h).map(x -> !x.needsProvider()).orElse(false);
                (none ? providerless : modelHarnesses).add(h);
            }
            if (providers.isEmpty() && (!modelHarnesses.isEmpty() || harnesses.isEmpty())) {
                problems.add("no provider: name at least one (--provider <name>)"
                        + (providerless.isEmpty() ? "" : "; only " + providerless + " need none"));
            }
            if (tasks.isEmpty()) {
                problems.add("no task: give a prompt (--prompt \"...\" or --prompt-file <file>)");
            }
            duplicateIds.forEach(d -> problems.add("two different tasks have the id '" + d + "': task ids must be unique"));
            tasks.values().forEach(t -> environment.refusal(t).ifPresent(problems::add));
            Preflight mcp = Preflight.of(runner);
            for (BenchTask t : tasks.values()) {
                for (String h : harnesses) {
                    if (!t.mcpServers().isEmpty() && !ReferenceHarnesses.isReference(h)) {
                        mcp.mcp(h, t.mcpServers()).ifPresent(why -> problems.add("task " + t.id() + " on " + h + ": " + why));
                    }
                }
            }
            boolean needsBaseline = tasks.values().stream().anyMatch(t -> t.repo().isEmpty() && t.setup().isEmpty());
            if (baseline == null && (needsBaseline || tasks.isEmpty())) {
                problems.add("no baseline repository: give one (--repo <path to a git repository>)");
            } else if (baseline != null && !Files.exists(baseline.resolve(".git"))) {
                problems.add("the baseline " + baseline + " is not a git repository (no .git): pass the root of a git checkout");
            }
            MatrixCheck checked = new MatrixCheck(runner, modelHarnesses,
                    modelHarnesses.isEmpty() ? List.of() : providers, models, problems);
            Preflight preflight = Preflight.of(runner);
            providerless.forEach(h -> preflight.harness(h).ifPresent(problems::add));
            List<String> warnings = new ArrayList<>(checked.warnings);
            if (providerless.contains(ReferenceHarnesses.ORACLE)) {
                tasks.values().stream().filter(t -> t.solution().isEmpty()).forEach(t -> warnings.add("task " + t.id()
                        + " has no reference solution: its oracle runs end error (give it a \"solution\")"));
            }
            Map<String, Path> setupRepos = problems.isEmpty()
                    ? TaskSetup.prepare(runner.stateDir(), id, tasks.values(), problems) : Map.of();
            if (!problems.isEmpty()) {
                throw new BenchPlanException(problems);
            }
            Map<List<Object>, Combo> unique = new LinkedHashMap<>();
            for (String h : checked.harnesses) {
                for (Map.Entry<String, List<String[]>> p : checked.resolved.entrySet()) {
                    for (String[] m : p.getValue()) {
                        for (BenchTask t : tasks.values()) {
                            String label = id == null ? t.id() : id + "/" + t.id();
                            for (int trial = 1; trial <= trials; trial++) {
                                unique.putIfAbsent(List.of(h, p.getKey(), m[1], label, trial),
                                        new Combo(h, p.getKey(), m[0], m[1], t, label, trial));
                            }
                        }
                    }
                }
            }
            for (String h : providerless) { // no provider resolved: one combo per task and trial, labelled "none"
                for (BenchTask t : tasks.values()) {
                    String label = id == null ? t.id() : id + "/" + t.id();
                    for (int trial = 1; trial <= trials; trial++) {
                        unique.putIfAbsent(List.of(h, ReferenceHarnesses.PROVIDER, ReferenceHarnesses.MODEL, label, trial),
                                new Combo(h, ReferenceHarnesses.PROVIDER, ReferenceHarnesses.MODEL,
                                        ReferenceHarnesses.MODEL, t, label, trial));
                    }
                }
            }
            return new BenchPlan(interleaveProviders(new ArrayList<>(unique.values())), this, setupRepos, warnings);
        }
    }
}
