package dev.harness4j.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Command-line arguments of a bench, parsed: lists may be repeated or comma-separated
 * ({@code --harness claude-code,aider --harness opencode}). Pure parsing; {@link BenchPlan}
 * validates the values.
 *
 * @param harnesses {@code --harness}: harness ids (empty: every installed adapter, the caller decides)
 * @param models {@code --model}: model ids (empty: each provider's default)
 * @param providers {@code --provider}: provider names (empty: the embedded scripted server)
 * @param prompt {@code --prompt}: the task, or {@code null}
 * @param promptFile {@code --prompt-file}: a file holding the task, or {@code null}
 * @param task {@code --task}: a short label for the task, or {@code null}
 * @param repo {@code --repo}: the baseline repository, or {@code null}
 * @param branch {@code --branch}: the branch (or any ref) of the repository to start from, or {@code null}
 * @param force {@code --force}: run combos that already have a result again
 * @param concurrency {@code --concurrency}: how many runs at once (default 2)
 * @param stateDir {@code --state-dir}: the state dir, or {@code null} for the caller's default
 * @param push {@code --push}: push each run's result to a branch of the baseline's remote
 * @param suite {@code --suite}: a directory of tasks ({@link TaskSuite}), or {@code null}
 * @param trials {@code --trials}: runs per task, harness and model, or 0 for the caller's default
 */
public record BenchArgs(List<String> harnesses, List<String> models, List<String> providers, String prompt,
        Path promptFile, String task, Path repo, String branch, boolean force, int concurrency, Path stateDir,
        boolean push, Path suite, int trials) {

    /** The usage text printed for {@code --help} and after a bad argument. */
    public static final String USAGE = """
            usage: bench [options]
              with no --provider: runs every harness against two scripted models on the embedded
              scripted model server, on a sample repository (no API key, no network)
              --harness <id,...>      harnesses to run (claude-code, opencode, aider, ...)
              --model <id,...>        models to request (default: each provider's default model)
              --provider <name,...>   providers from <state-dir>/config/providers.json
              --prompt <text>         the task
              --prompt-file <file>    the task, read from a file
              --task <label>          a short name for the task in reports (default: task)
              --repo <path>           the git repository to work on (never modified)
              --branch <ref>          the branch of --repo to start from (default: its current branch)
              --force                 run again combos that already have a result
              --suite <dir>           a directory of tasks (task.json each) instead of --prompt
              --trials <n>            runs per task, harness and model (default 1; the sample suite: 2)
              --concurrency <n>       runs at once (default 2)
              --state-dir <path>      where queue, runs and results live (default ~/.harness4j)
              --push                  push each result to a branch of --repo's remote
              --serve                 (the main job) also serve the live view while it runs:
                                      watch it live: http://127.0.0.1:PORT/?t=...
            """;

    public BenchArgs {
        harnesses = List.copyOf(harnesses);
        models = List.copyOf(models);
        providers = List.copyOf(providers);
        if (concurrency < 1) {
            throw new IllegalArgumentException("--concurrency must be >= 1, was " + concurrency);
        }
    }

    /**
     * Parses arguments.
     *
     * @throws IllegalArgumentException naming the bad argument (the message ends with the usage)
     */
    public static BenchArgs parse(String... args) {
        Objects.requireNonNull(args, "args");
        List<String> harnesses = new ArrayList<>();
        List<String> models = new ArrayList<>();
        List<String> providers = new ArrayList<>();
        String prompt = null;
        Path promptFile = null;
        String task = null;
        Path repo = null;
        String branch = null;
        boolean force = false;
        boolean push = false;
        int concurrency = 2;
        Path stateDir = null;
        Path suite = null;
        int trials = 0;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--force" -> force = true;
                case "--push" -> push = true;
                case "--help", "-h" -> throw new IllegalArgumentException("help requested\n" + USAGE);
                default -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw bad(a.startsWith("--") ? a + " needs a value" : "unknown argument '" + a + "'");
                        }
                        value = args[++i];
                    }
                    switch (a) {
                        case "--harness" -> split(value, harnesses);
                        case "--model" -> split(value, models);
                        case "--provider" -> split(value, providers);
                        case "--prompt" -> prompt = value;
                        case "--prompt-file" -> promptFile = Path.of(value);
                        case "--task" -> task = value;
                        case "--repo" -> repo = Path.of(value);
                        case "--branch" -> branch = value;
                        case "--state-dir" -> stateDir = Path.of(value);
                        case "--suite" -> suite = Path.of(value);
                        case "--trials" -> {
                            try {
                                trials = Integer.parseInt(value.trim());
                            } catch (NumberFormatException e) {
                                throw bad("--trials takes a number, got '" + value + "'");
                            }
                            if (trials < 1) {
                                throw bad("--trials must be >= 1, got " + trials);
                            }
                        }
                        case "--concurrency" -> {
                            try {
                                concurrency = Integer.parseInt(value.trim());
                            } catch (NumberFormatException e) {
                                throw bad("--concurrency takes a number, got '" + value + "'");
                            }
                            if (concurrency < 1) {
                                throw bad("--concurrency must be >= 1, got " + concurrency);
                            }
                        }
                        default -> throw bad("unknown argument '" + a + "'");
                    }
                }
            }
        }
        if (prompt != null && promptFile != null) {
            throw bad("give --prompt or --prompt-file, not both");
        }
        if (suite != null && (prompt != null || promptFile != null)) {
            throw bad("give --suite or a prompt (--prompt, --prompt-file), not both");
        }
        return new BenchArgs(harnesses, models, providers, prompt, promptFile, task, repo, branch, force, concurrency,
                stateDir, push, suite, trials);
    }

    /** These arguments with {@code --state-dir} set to {@code value}. */
    public BenchArgs withStateDir(Path value) {
        return new BenchArgs(harnesses, models, providers, prompt, promptFile, task, repo, branch, force, concurrency,
                java.util.Objects.requireNonNull(value, "stateDir"), push, suite, trials);
    }

    /** Whether no provider was named: the embedded scripted server is used. */
    public boolean embedded() {
        return providers.isEmpty();
    }

    private static void split(String value, List<String> into) {
        for (String part : value.split(",")) {
            String p = part.strip();
            if (!p.isEmpty() && !into.contains(p)) {
                into.add(p);
            }
        }
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException(what + "\n" + USAGE);
    }
}
