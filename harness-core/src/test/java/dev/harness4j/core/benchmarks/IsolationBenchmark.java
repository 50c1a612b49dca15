package dev.harness4j.core.benchmarks;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.internal.workspace.Workspaces;
import java.io.IOException;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Isolation cost on a generated repository: {@link Workspaces#isolate} in each mode against
 * {@code git worktree add} and {@code git clone --local} run as commands, and JGit's own clone
 * (the evidence for making checkouts with the git binary), side by side (round
 * robin, so load drifts hit every contender alike), once with loose objects (as freshly
 * committed) and once packed ({@code git gc}). Args: {@code [files=20000] [rounds=5]}.
 *
 * <pre>
 * mvn -o -q -pl harness-core -am test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.harness4j.core.benchmarks.IsolationBenchmark -Dexec.args="20000 5"
 * </pre>
 */
public final class IsolationBenchmark {
    private IsolationBenchmark() {}

    public static void main(String[] args) throws Exception {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path root = Files.createTempDirectory("h4j-isolation-bench");
        try {
            Path repo = generate(root.resolve("repo"), files);
            System.out.printf("repository: %d files, %s%n", files, repo);
            measure("loose objects", root, repo, rounds);
            Timing.sh(repo, "git", "gc", "-q");
            measure("packed (after git gc)", root, repo, rounds);
        } finally {
            Timing.sh(root, "rm", "-rf", root.toString());
        }
    }

    private static void measure(String label, Path root, Path repo, int rounds) throws IOException {
        Workspaces ws = Workspaces.builder().stateDir(root.resolve("state")).build();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        for (String k : List.of("git worktree add", "git clone --local", "Workspaces CLONE", "Workspaces WORKTREE",
                "JGit clone (in-process)")) {
            times.put(k, new ArrayList<>());
        }
        for (int r = -1; r < rounds; r++) { // round -1 warms the JVM and the page cache
            Path wt = root.resolve("cmd-wt-" + r);
            long t0 = System.nanoTime();
            Timing.sh(repo, "git", "worktree", "add", "--detach", "--quiet", wt.toString(), "HEAD");
            long t1 = System.nanoTime();
            Timing.sh(repo, "git", "worktree", "remove", "--force", wt.toString());
            Path cl = root.resolve("cmd-clone-" + r);
            long t2 = System.nanoTime();
            Timing.sh(root, "git", "clone", "--local", "--quiet", repo.toString(), cl.toString());
            long t3 = System.nanoTime();
            Timing.sh(root, "rm", "-rf", cl.toString());
            long t4 = System.nanoTime();
            Workspace c = ws.isolate("bench-c" + (r + 1), repo, null, Isolation.CLONE);
            long t5 = System.nanoTime();
            c.close();
            long t6 = System.nanoTime();
            Workspace w = ws.isolate("bench-w" + (r + 1), repo, null, Isolation.WORKTREE);
            long t7 = System.nanoTime();
            w.close();
            Path jg = root.resolve("jgit-clone-" + r);
            long t8 = System.nanoTime();
            try {
                Git.cloneRepository().setURI(repo.toUri().toString()).setDirectory(jg.toFile()).call().close();
            } catch (GitAPIException e) {
                throw new IllegalStateException(e);
            }
            long t9 = System.nanoTime();
            Timing.sh(root, "rm", "-rf", jg.toString());
            if (r >= 0) {
                times.get("JGit clone (in-process)").add(Timing.ms(t9 - t8));
                times.get("git worktree add").add(Timing.ms(t1 - t0));
                times.get("git clone --local").add(Timing.ms(t3 - t2));
                times.get("Workspaces CLONE").add(Timing.ms(t5 - t4));
                times.get("Workspaces WORKTREE").add(Timing.ms(t7 - t6));
            }
        }
        double ref = Timing.median(times.get("git worktree add"));
        System.out.printf("%n%s, %d rounds (median ms, ratio to git worktree add):%n", label, rounds);
        times.forEach((k, v) -> System.out.printf("  %-24s %s ms  %5.2fx   all: %s%n", k, Timing.fmt(Timing.median(v)),
                Timing.median(v) / ref, v.stream().map(x -> String.format(java.util.Locale.ROOT, "%.0f", x)).toList()));
    }

    /** A repository with {@code files} small files in 100-file directories, one commit. */
    static Path generate(Path repo, int files) throws IOException {
        Files.createDirectories(repo);
        Timing.sh(repo, "git", "init", "-q", "-b", "main");
        for (int i = 0; i < files; i++) {
            Path f = repo.resolve("src/d" + (i / 100) + "/f" + i + ".txt");
            if (i % 100 == 0) {
                Files.createDirectories(f.getParent());
            }
            Files.writeString(f, "file " + i + "\nsome content line\n");
        }
        Timing.sh(repo, "git", "add", "-A");
        Timing.sh(repo, "git", "commit", "-q", "-m", "generated");
        return repo;
    }
}
