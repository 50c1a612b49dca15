package dev.harness4j.examples;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchArgs;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.bench.BenchPlanException;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.cli.Embedding;
import dev.harness4j.cli.Harness4j;
import dev.harness4j.cli.SandboxNotice;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bench main job. Without {@code --provider} it needs no key and no network: it starts the
 * embedded scripted model server with two scripted models and runs the bundled {@link SampleSuite}
 * (four tasks, each checked by a verifier that really runs) × claude-code × opencode × aider ×
 * both models × {@value #DEFAULT_TRIALS} trials through the {@code harness4j} command's {@code
 * bench run} (in this JVM, the scripted server as its provider: {@link Embedding}), which prints
 * the summary table and the leaderboard and writes the reports. {@code --prompt} runs one task on a sample repository instead, {@code
 * --suite} a suite of your own. With {@code --provider} (configured in {@code
 * <state-dir>/config/providers.json}) it runs the same matrix against real endpoints. See
 * {@link BenchArgs#USAGE}.
 *
 * <pre>
 * bash scripts/bench.sh
 * bash scripts/bench.sh --provider anthropic --model claude-sonnet-4-5 --harness claude-code,aider \
 *     --repo ~/src/app --branch main --prompt "Add input validation to the signup form"
 * </pre>
 *
 * <p>Exit status: 0 when every run of the matrix ended {@code completed} or {@code no-op}, 1 when
 * some did not, 2 for bad arguments or an invalid plan (nothing queued).
 */
public final class BenchMain {
    /** The scripted models of the embedded default. */
    public static final List<String> SCRIPTED_MODELS = List.of("scripted-a", "scripted-b");
    /** The harnesses of the default matrix. */
    public static final List<String> DEFAULT_HARNESSES = List.of("claude-code", "opencode", "aider");
    /** Trials per task, harness and model of the embedded sample suite. */
    public static final int DEFAULT_TRIALS = 2;
    /** The task of the embedded default with {@code --prompt} given but no task. */
    public static final String DEFAULT_PROMPT =
            "Create a file named hello.txt at the root of the repository containing a one-line greeting.";

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.console() != null));
    }

    /** The main job's flag that serves the live view while the bench runs. */
    static final String SERVE = "--serve";
    /** How long the live view may take to start: 30 s. */
    static final java.time.Duration SERVE_START = java.time.Duration.ofSeconds(30);

    /** Runs the main job; returns the exit status. */
    public static int run(String[] args, PrintStream out, boolean terminal) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.print(BenchArgs.USAGE);
            return 0;
        }
        boolean serve = List.of(args).contains(SERVE);
        BenchArgs a;
        try {
            a = BenchArgs.parse(java.util.Arrays.stream(args).filter(x -> !x.equals(SERVE)).toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            out.println(e.getMessage());
            return 2;
        }
        try {
            if (serve) {
                Path state = a.stateDir() != null ? a.stateDir() : a.embedded()
                        ? Files.createTempDirectory("harness4j-bench-") : Path.of(System.getProperty("user.home"), ".harness4j");
                a = a.withStateDir(state);
                serve(state, out);
            }
            return a.embedded() ? embedded(a, out, terminal) : real(a, out, terminal);
        } catch (BenchPlanException e) {
            out.println(e.getMessage());
            return 2;
        }
    }

    /**
     * Starts {@code harness4j serve} on the bench's state dir in this JVM, for as long as the job
     * runs; returns once it printed {@code watch it live: http://127.0.0.1:PORT/?t=…}.
     */
    private static void serve(Path state, PrintStream out) throws InterruptedException {
        java.util.concurrent.CountDownLatch printed = new java.util.concurrent.CountDownLatch(1);
        StringBuilder seen = new StringBuilder(); // println writes its line and its newline apart
        java.io.Writer w = new java.io.Writer() {
            @Override
            public synchronized void write(char[] c, int off, int len) {
                out.print(new String(c, off, len));
                if (printed.getCount() > 0) {
                    seen.append(c, off, len);
                    int at = seen.indexOf("watch it live: ");
                    if (at >= 0 && seen.indexOf("\n", at) >= 0) {
                        out.flush();
                        printed.countDown(); // the whole line is out: the bench's lines come after it
                    }
                }
            }

            @Override
            public void flush() {
                out.flush();
            }

            @Override
            public void close() {
                flush();
            }
        };
        java.io.PrintWriter pw = new java.io.PrintWriter(w, true);
        Thread t = new Thread(() -> Harness4j.run(pw, pw, "serve", "--state-dir", state.toString()), "harness4j-serve");
        t.setDaemon(true);
        t.start();
        if (!printed.await(SERVE_START.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
            out.println("the live view did not start within " + SERVE_START.toSeconds() + " s; the bench runs without it");
        }
    }

    private static int embedded(BenchArgs a, PrintStream out, boolean terminal) throws Exception {
        Path state = a.stateDir() != null ? a.stateDir() : Files.createTempDirectory("harness4j-bench-");
        List<String> models = a.models().isEmpty() ? SCRIPTED_MODELS : a.models();
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY)) {
            models.forEach(m -> server.script(m, scenario(m)));
            boolean sample = a.suite() == null && a.prompt() == null && a.promptFile() == null;
            out.println("embedded scripted model server on " + server.baseUrl() + " with models " + models);
            if (sample && !a.push()) { // the README's main job: the harness4j command's bench run on the bundled suite
                return sampleThroughTheCli(a, models, state, server, out);
            }
            Path repo = a.repo() != null ? a.repo() : sampleRepo(state.resolve("sample-repo"));

            try (HarnessRunner runner = HarnessRunner.builder().stateDir(state).providers(new ScriptedProvider(server))
                    .pushBranches(a.push()).build()) {
                Bench bench = Bench.builder(runner).concurrency(a.concurrency()).out(out, terminal)
                        .decorate(exec -> rescripting(exec, server)).build();
                BenchPlan.Builder plan = bench.plan().provider(ScriptedProvider.NAME).models(models.toArray(String[]::new))
                        .ref(a.branch()).force(a.force())
                        .harnesses((a.harnesses().isEmpty() ? DEFAULT_HARNESSES : a.harnesses()).toArray(String[]::new));
                // aider streams without asking for usage, so the wire would carry no tokens to meter:
                // unstreamed, its requests report their usage (claude-code and opencode ignore the option)
                plan.option("stream", "false");
                if (sample) { // the README's main job: the bundled suite, each task verified, two trials
                    plan.suite(SampleSuite.extract(state)).trials(a.trials() > 0 ? a.trials() : DEFAULT_TRIALS);
                } else {
                    plan.baseline(repo).trials(a.trials() > 0 ? a.trials() : 1);
                    suiteOrTask(plan, a, DEFAULT_PROMPT);
                }
                return finish(SandboxNotice.run(bench, plan.build(), out::println));
            }
        }
    }

    /**
     * The bundled suite × the harnesses × the scripted models, run by the {@code harness4j}
     * command's {@code bench run} in this JVM, its providers the embedded server's: prints what
     * the command prints (the plan, progress, summary, leaderboard, task grid, reports' paths).
     * 0 when every run ended {@code completed} or {@code no-op}, 1 otherwise, 2 for an invalid plan.
     */
    private static int sampleThroughTheCli(BenchArgs a, List<String> models, Path state, ScriptedModelServer server,
            PrintStream out) throws IOException {
        SampleSuite.extract(state); // loaded here too: a broken bundle fails before the command runs
        Path suite = state.resolve(SampleSuite.ID);
        List<String> args = new java.util.ArrayList<>(List.of("bench", "run", "--state-dir", state.toString(),
                "--suite", suite.toString(), "--provider", ScriptedProvider.NAME, "--model", String.join(",", models),
                "--harness", String.join(",", a.harnesses().isEmpty() ? DEFAULT_HARNESSES : a.harnesses()),
                "--trials", String.valueOf(a.trials() > 0 ? a.trials() : DEFAULT_TRIALS),
                "--concurrency", String.valueOf(a.concurrency())));
        if (a.force()) {
            args.add("--force");
        }
        out.println("$ harness4j " + String.join(" ", args));
        // aider streams without asking for usage, so the wire would carry no tokens to meter:
        // unstreamed, its requests report their usage (claude-code and opencode ignore the option)
        Embedding embedding = new Embedding(new ScriptedProvider(server), exec -> rescripting(exec, server),
                Map.of("stream", "false"));
        PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        int status = Harness4j.run(w, w, embedding, args.toArray(String[]::new));
        w.flush();
        if (status != Harness4j.OK) {
            return status;
        }
        BenchSummary s = BenchSummary.read(state);
        return s.rows().stream().allMatch(r -> isSuccess(r.outcome())) ? 0 : 1;
    }

    private static int real(BenchArgs a, PrintStream out, boolean terminal) throws Exception {
        Path state = a.stateDir() != null ? a.stateDir() : Path.of(System.getProperty("user.home"), ".harness4j");
        ProviderResolver providers = Providers.fromStateDir(state);
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state).providers(providers).pushBranches(a.push())
                .build()) {
            Bench bench = Bench.builder(runner).concurrency(a.concurrency()).out(out, terminal).build();
            BenchPlan.Builder plan = bench.plan().models(a.models().toArray(String[]::new)).ref(a.branch())
                    .force(a.force())
                    .harnesses((a.harnesses().isEmpty() ? DEFAULT_HARNESSES : a.harnesses()).toArray(String[]::new));
            a.providers().forEach(plan::provider);
            if (a.repo() != null) {
                plan.baseline(a.repo());
            }
            plan.trials(a.trials() > 0 ? a.trials() : 1);
            suiteOrTask(plan, a, null);
            return finish(SandboxNotice.run(bench, plan.build(), out::println));
        }
    }

    private static void suiteOrTask(BenchPlan.Builder plan, BenchArgs a, String fallback) throws IOException {
        if (a.suite() != null) {
            plan.suite(TaskSuite.load(a.suite()));
            return;
        }
        String prompt = a.promptFile() != null ? Files.readString(a.promptFile(), StandardCharsets.UTF_8) : a.prompt();
        if (prompt == null) {
            prompt = fallback;
        }
        if (prompt != null) {
            plan.task(a.task() != null ? a.task() : "task", prompt);
        }
    }

    /**
     * 0 when every run ended {@code completed} or {@code no-op} (a verifier's verdict is a result
     * of the bench, not a failure of it), 1 otherwise.
     */
    private static int finish(BenchRun outcome) {
        List<String> dirs = outcome.summary().rows().stream().filter(r -> !isSuccess(r.outcome())).map(r -> r.dir()).toList();
        return outcome.processed().failed() == 0 && outcome.processed().interrupted() == 0 && dirs.isEmpty() ? 0 : 1;
    }

    private static boolean isSuccess(String wire) {
        return wire.equals("completed") || wire.equals("no-op");
    }

    /** The scripted task: write hello.txt (the tool call each harness understands), then say so. */
    static Scenario scenario(String model) {
        return Scenario.builder()
                .writeFile("hello.txt", "Hello from " + model + "!\n").usage(1200, 80, 0, 0)
                .say("Created hello.txt with a one-line greeting.").usage(1300, 25, 0, 0)
                .build();
    }

    /**
     * The server plays a model's script once; each run gets it afresh, and runs of one model never
     * overlap (a lock per model), so any concurrency is safe.
     */
    private static QueueProcessor.Executor rescripting(QueueProcessor.Executor inner, ScriptedModelServer server) {
        return rescripting(inner, server, java.time.Duration.ZERO);
    }

    /** {@link #rescripting(QueueProcessor.Executor, ScriptedModelServer)} with the sample's answers paused first. */
    static QueueProcessor.Executor rescripting(QueueProcessor.Executor inner, ScriptedModelServer server,
            java.time.Duration pause) {
        Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
        return new QueueProcessor.Executor() {
            @Override
            public HarnessResult run(String runId, RunSpec spec) throws Exception {
                ReentrantLock lock = locks.computeIfAbsent(spec.model(), m -> new ReentrantLock());
                lock.lockInterruptibly();
                try {
                    String task = spec.task() == null ? "" : spec.task().substring(spec.task().lastIndexOf('/') + 1);
                    server.script(spec.model(), SampleSuite.TASKS.contains(task)
                            ? SampleSuite.scenario(spec.model(), task, spec.harness(), pause)
                            : scenario(spec.model()));
                    return inner.run(runId, spec);
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public boolean bail(String runId) {
                return inner.bail(runId);
            }
        };
    }

    /** A small git repository to work on: a README and a source file, one commit on {@code main}. */
    static Path sampleRepo(Path dir) throws IOException, InterruptedException {
        if (Files.exists(dir.resolve(".git"))) {
            return dir;
        }
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(dir.resolve("README.md"), "# sample\n\nA sample project for the harness4j bench.\n");
        Files.writeString(dir.resolve("src/app.py"), "def main():\n    print('app')\n\n\nif __name__ == '__main__':\n    main()\n");
        git(dir, "init", "-q", "-b", "main");
        git(dir, "add", "-A");
        git(dir, "-c", "user.name=harness4j", "-c", "user.email=bench@harness4j.dev", "commit", "-q", "-m", "sample project");
        return dir;
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("git " + String.join(" ", args) + " failed in " + dir + ": " + text);
        }
    }
}
