package dev.harness4j.bench;

import dev.harness4j.api.Outcome;
import dev.harness4j.api.Termination;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.process.ProcessOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A bench's verifier, as the runner's {@link AfterHarness} step: for a completed run of a task with
 * a {@link TaskVerify}, copies the task's verifier files into the workspace (after the agent, so it
 * never saw them; whatever the agent left under that name is replaced), runs the verify command
 * there under the runner's supervision, and records {@code verify.log} and a {@code verify}
 * section in {@code meta.json}: {@code status}, {@code exit_code}, {@code reward}, {@code rewards}
 * (the named metrics, when the verifier wrote some: {@link VerifierRewards}), {@code duration_ms},
 * {@code reason}. A run that did not complete is recorded {@code not-verified}. A Harbor task's
 * verifier ({@link TaskVerify.Layout#HARBOR}) gets its {@code tests/} and {@code /logs/verifier}
 * as per-run directories in the step's scratch dir ({@link HarborPaths}).
 */
final class Verification implements AfterHarness {
    /** The section's key in {@code meta.json}. */
    static final String SECTION = "verify";
    /** The log's name in the result directory. */
    static final String LOG = "verify.log";

    private final Function<String, Optional<BenchTask>> tasks;

    /** @param tasks finds a run's task by its label ({@code RunSpec.task()}) */
    Verification(Function<String, Optional<BenchTask>> tasks) {
        this.tasks = tasks;
    }

    @Override
    public void afterHarness(Context ctx) throws InterruptedException {
        Optional<TaskVerify> verify = Optional.ofNullable(ctx.spec().task()).flatMap(tasks).flatMap(BenchTask::verify);
        if (verify.isEmpty()) {
            return;
        }
        Map<String, Object> section = new LinkedHashMap<>();
        Outcome outcome = ctx.result().outcome();
        if (outcome != Outcome.COMPLETED) {
            section.put("status", VerifyStatus.NOT_VERIFIED.wireName());
            section.put("reason", "the run ended " + outcome.wireName() + "; only completed runs are verified");
            ctx.putMeta(SECTION, section);
            return;
        }
        TaskVerify v = verify.get();
        boolean harbor = v.layout() == TaskVerify.Layout.HARBOR;
        Path scratch = ctx.scratchDir();
        HarborPaths paths = harbor ? new HarborPaths(scratch.resolve("tests"), scratch.resolve("logs/verifier")) : null;
        String command = v.command();
        try {
            if (harbor) {
                Files.createDirectories(paths.logs());
                if (v.files() != null) {
                    copyFiles(v.files(), paths.tests());
                    paths.rewriteFiles();
                }
                command = paths.rewrite(command);
            } else if (v.files() != null) {
                copyFiles(v.files(), ctx.workspace().resolve(v.files().getFileName().toString()));
            }
        } catch (IOException | UncheckedIOException e) {
            section.put("status", VerifyStatus.VERIFIER_ERROR.wireName());
            section.put("reason", e instanceof UncheckedIOException u ? u.getMessage() + ": " + u.getCause()
                    : "could not lay out the verifier's files: " + e);
            ctx.putMeta(SECTION, section);
            return;
        }
        Path rewardTxt = harbor ? paths.logs().resolve("reward.txt") : scratch.resolve("reward.txt");
        Path rewardJson = harbor ? paths.logs().resolve("reward.json") : scratch.resolve("reward.json");
        Path log = scratch.resolve(LOG);
        ProcessOutcome o = ctx.run(List.of("sh", "-c", command), Map.of(TaskVerify.REWARD_ENV, rewardTxt.toString(),
                TaskVerify.REWARDS_ENV, rewardJson.toString()), v.timeout(), log);
        ctx.addResultFile(LOG, log);
        VerifyStatus status;
        String reason = null;
        Termination.Kind kind = o.termination().kind();
        if (kind == Termination.Kind.MAX_RUNTIME) {
            status = VerifyStatus.VERIFIER_TIMEOUT;
            reason = "the verify command ran longer than " + v.timeout().toSeconds() + " s and was stopped";
        } else if (kind != Termination.Kind.EXITED) {
            status = VerifyStatus.VERIFIER_ERROR;
            reason = "the verify command ended " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + (o.termination().reason() == null ? "" : ": " + o.termination().reason());
        } else if (o.exitCode() != null && (o.exitCode() == 126 || o.exitCode() == 127)) {
            status = VerifyStatus.VERIFIER_ERROR;
            reason = "the verify command could not run (exit " + o.exitCode() + ": not executable or not found)";
        } else if (o.exitCode() != null && o.exitCode() == 0) {
            status = VerifyStatus.PASSED;
        } else {
            status = VerifyStatus.FAILED;
        }
        VerifierRewards.Read rewards = new VerifierRewards.Read(null, Map.of(), null);
        if (status != VerifyStatus.VERIFIER_TIMEOUT) {
            rewards = VerifierRewards.read(rewardTxt, rewardJson, v.primaryMetric(),
                    harbor ? "/logs/verifier/reward.txt" : "the reward file", harbor ? "/logs/verifier/reward.json"
                            : "the rewards file");
            if (rewards.problem() != null && status != VerifyStatus.VERIFIER_ERROR) {
                status = VerifyStatus.VERIFIER_ERROR;
                reason = rewards.problem();
            } else if (v.passReward() != null && status != VerifyStatus.VERIFIER_ERROR) {
                if (!rewards.written()) {
                    status = VerifyStatus.VERIFIER_ERROR;
                    reason = harbor ? "tests/test.sh wrote no reward: it must write /logs/verifier/reward.txt (one number)"
                            + " or /logs/verifier/reward.json (named metrics)"
                            : "the verify command wrote no reward, and this task is judged by its reward: write a number to"
                                    + " $" + TaskVerify.REWARD_ENV + " or named metrics to $" + TaskVerify.REWARDS_ENV;
                } else {
                    status = rewards.reward() >= v.passReward() ? VerifyStatus.PASSED : VerifyStatus.FAILED;
                    reason = status == VerifyStatus.PASSED ? null : String.format(java.util.Locale.ROOT,
                            "reward %.2f is below the %.2f a pass needs", rewards.reward(), v.passReward());
                }
            }
        }
        section.put("status", status.wireName());
        section.put("exit_code", o.exitCode());
        section.put("reward", rewards.reward());
        if (!rewards.metrics().isEmpty()) {
            section.put("rewards", new LinkedHashMap<>(rewards.metrics()));
        }
        section.put("duration_ms", o.duration().toMillis());
        section.put("reason", reason);
        ctx.putMeta(SECTION, section);
    }

    /** Copies a directory tree, replacing what is at {@code target} (the agent's files under that name). */
    private static void copyFiles(Path source, Path target) {
        try {
            if (Files.exists(target)) {
                try (var s = Files.walk(target)) {
                    for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.walkFileTree(source, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.copy(file, target.resolve(source.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy the verifier files " + source + " into the workspace", e);
        }
    }
}
