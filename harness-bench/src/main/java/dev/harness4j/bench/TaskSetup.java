package dev.harness4j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Builds the repositories of tasks that have a {@code setup} command, once per bench: in {@code
 * <stateDir>/bench-tasks/<bench id>/<task id>/repo}, an empty directory where the command runs
 * ({@code sh -c}, {@code TASK_DIR} set to the task's directory); what it leaves is committed
 * (unless it made a repository itself). A finished setup is marked and reused, so a resumed bench
 * starts from the same commit.
 */
final class TaskSetup {
    /** How long a setup command may run: 5 minutes. */
    static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final String DONE = ".setup-done";

    private TaskSetup() {}

    /** The repositories of the tasks with a setup, by task id; each failure is added to {@code problems}. */
    static Map<String, Path> prepare(Path stateDir, String benchId, Collection<BenchTask> tasks, List<String> problems) {
        Map<String, Path> repos = new LinkedHashMap<>();
        for (BenchTask t : tasks) {
            if (t.setup().isEmpty()) {
                continue;
            }
            Path home = stateDir.resolve("bench-tasks").resolve(benchId == null ? "default" : safe(benchId))
                    .resolve(safe(t.id()));
            Path repo = home.resolve("repo");
            try {
                if (!Files.exists(home.resolve(DONE))) {
                    deleteTree(repo);
                    Files.createDirectories(repo);
                    String out = run(repo, t, List.of("sh", "-c", t.setup().get()));
                    if (out != null) {
                        problems.add("task " + t.id() + ": its setup command failed: " + out);
                        continue;
                    }
                    if (!Files.exists(repo.resolve(".git"))) {
                        String git = commitAll(repo, t);
                        if (git != null) {
                            problems.add("task " + t.id() + ": committing what its setup made failed: " + git);
                            continue;
                        }
                    }
                    Files.writeString(home.resolve(DONE), "ok\n");
                }
                repos.put(t.id(), repo);
            } catch (IOException e) {
                problems.add("task " + t.id() + ": its setup could not run in " + repo + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                problems.add("task " + t.id() + ": interrupted during its setup");
                return repos;
            }
        }
        return repos;
    }

    private static String commitAll(Path repo, BenchTask t) throws IOException, InterruptedException {
        for (List<String> cmd : List.of(List.of("git", "init", "-q", "-b", "main"), List.of("git", "add", "-A"),
                List.of("git", "-c", "user.name=harness4j", "-c", "user.email=bench@harness4j.dev", "commit", "-q",
                        "--allow-empty", "-m", "task " + t.id()))) {
            String out = run(repo, t, cmd);
            if (out != null) {
                return out;
            }
        }
        return null;
    }

    /** Runs a command; null when it exited 0, else what went wrong with its output's tail. */
    private static String run(Path dir, BenchTask t, List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        t.dir().ifPresent(d -> pb.environment().put("TASK_DIR", d.toString()));
        Path log = Files.createTempFile("harness4j-setup-", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        try {
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return "'" + String.join(" ", cmd) + "' ran longer than " + TIMEOUT.toMinutes() + " minutes";
            }
            if (p.exitValue() != 0) {
                String text = Files.readString(log, StandardCharsets.UTF_8).strip();
                return "'" + String.join(" ", cmd) + "' exited " + p.exitValue()
                        + (text.isEmpty() ? "" : ": " + text.substring(Math.max(0, text.length() - 400)));
            }
            return null;
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            Files.deleteIfExists(log);
        }
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "-");
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.forEach(all::add);
        }
        all.sort(Comparator.reverseOrder());
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }

}
