package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.NotAGitRepositoryException;
import dev.harness4j.core.workspace.StateDirNotWritableException;
import dev.harness4j.core.workspace.UnknownRefException;
import dev.harness4j.core.workspace.WorkspaceException;
import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.fingerprint;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WorkspacesTest {
    @TempDir Path tmp;

    private Workspaces workspaces() {
        return Workspaces.builder().stateDir(tmp.resolve("state")).build();
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void isolatesTheCurrentBranchAndLeavesTheBaselineByteIdenticalAfterCommitsAndDirt(Isolation mode) throws Exception {
        Path base = repo(tmp.resolve("base"));
        Map<String, String> before = fingerprint(base);
        Workspaces w = workspaces();
        Workspace ws = w.isolate("run-1", base, null, mode);

        assertThat(ws.dir()).isEqualTo(w.stateDir().resolve("runs/run-1/workspace"));
        assertThat(ws.scratchDir()).isEqualTo(w.stateDir().resolve("runs/run-1/scratch")).isDirectory();
        assertThat(ws.scratchDir().startsWith(ws.dir())).isFalse();
        assertThat(ws.dir().resolve("README.md")).hasContent("hello");
        assertThat(ws.baseline().ref()).isEqualTo("main");
        assertThat(ws.baseline().commit()).isEqualTo(git(base, "rev-parse", "HEAD"));
        assertThat(ws.baseline().dirty()).isFalse();

        write(ws.dir(), "new.txt", "new\n");
        commitAll(ws.dir(), "work in the workspace");
        write(ws.dir(), "README.md", "changed but not committed\n");
        write(ws.dir(), "untracked.txt", "u\n");
        ws.close();
        ws.close(); // idempotent

        assertThat(w.stateDir().resolve("runs/run-1")).doesNotExist();
        assertThat(fingerprint(base)).isEqualTo(before);
        assertThat(base.resolve(".git/worktrees")).satisfiesAnyOf(
                p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
    }

    @Test
    void aCloneIsIndependentWithTheBaselineAsOriginAndTheBranchCheckedOut() {
        Path base = repo(tmp.resolve("base"));
        try (Workspace ws = workspaces().isolate("run-c", base, null, Isolation.CLONE)) {
            assertThat(ws.dir().resolve(".git")).isDirectory();
            assertThat(git(ws.dir(), "remote", "get-url", "origin")).isEqualTo(ws.baseline().repo().toString());
            assertThat(git(ws.dir(), "symbolic-ref", "--short", "HEAD")).isEqualTo("main");
        }
    }

    @Test
    void aWorktreeIsDetachedAndItsRegistrationIsRemovedOnClose() {
        Path base = repo(tmp.resolve("base"));
        Workspace ws = workspaces().isolate("run-w", base, null, Isolation.WORKTREE);
        assertThat(ws.dir().resolve(".git")).isRegularFile();
        assertThat(git(base, "worktree", "list")).contains(ws.dir().toString());
        assertThat(git(ws.dir(), "rev-parse", "--abbrev-ref", "HEAD")).isEqualTo("HEAD");
        ws.close();
        assertThat(git(base, "worktree", "list")).doesNotContain(ws.dir().toString());
    }

    /**
     * Git's worktree commands on one repository race (each reads every {@code .git/worktrees/<id>/}
     * and dies on a half-made one): without the per-baseline lock and retries, about one add or
     * remove in twenty failed here with two threads, plus another process doing the same.
     */
    @Test
    void concurrentWorktreesOfOneBaselineAllSucceedAlongsideAnotherProcessDoingTheSame() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Workspaces w = workspaces();
        Path outside = tmp.resolve("outside");
        // another process adding and removing worktrees of the same baseline all along
        Path stop = tmp.resolve("stop");
        Process other = new ProcessBuilder("bash", "-c", "i=0; while [ ! -e \"$2\" ]; do i=$((i+1)); "
                + "git -C \"$0\" worktree add --detach --quiet \"$1/o$i\" HEAD 2>/dev/null; "
                + "git -C \"$0\" worktree remove --force --force \"$1/o$i\" 2>/dev/null; sleep 0.02; done",
                base.toString(), outside.toString(), stop.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int thread = t;
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        try (Workspace ws = w.isolate("run-" + thread + "-" + i, base, null, Isolation.WORKTREE)) {
                            assertThat(ws.dir().resolve("README.md")).hasContent("hello");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : runs) {
                f.get(120, TimeUnit.SECONDS); // rethrows the first failed isolate or close
            }
        } finally {
            pool.shutdownNow();
            Files.createFile(stop); // the loop ends its cycle (no git of it left running) and exits
            if (!other.waitFor(30, TimeUnit.SECONDS)) {
                other.destroyForcibly();
            }
        }
        assertThat(w.stateDir().resolve("runs")).isEmptyDirectory();
        assertThat(git(base, "worktree", "list")).doesNotContain(w.stateDir().toString());
    }

    @Test
    void isolatesATagAndACommitId() throws Exception {
        Path base = repo(tmp.resolve("base"));
        String first = git(base, "rev-parse", "HEAD");
        git(base, "tag", "v1");
        write(base, "README.md", "second\n");
        commitAll(base, "second");
        Workspaces w = workspaces();
        try (Workspace byTag = w.isolate("run-t", base, "v1", Isolation.CLONE);
                Workspace byId = w.isolate("run-i", base, first.substring(0, 10), Isolation.WORKTREE)) {
            assertThat(byTag.baseline().commit()).isEqualTo(first);
            assertThat(byTag.baseline().branch()).isNull();
            assertThat(byTag.dir().resolve("README.md")).hasContent("hello");
            assertThat(git(byTag.dir(), "rev-parse", "HEAD")).isEqualTo(first);
            assertThat(byId.baseline().commit()).isEqualTo(first);
            assertThat(git(byId.dir(), "rev-parse", "HEAD")).isEqualTo(first);
        }
    }

    @Test
    void aDetachedBaselineIsIsolatedAtItsHeadCommit() throws Exception {
        Path base = repo(tmp.resolve("base"));
        write(base, "README.md", "second\n");
        commitAll(base, "second");
        git(base, "checkout", "-q", "--detach", "HEAD~1");
        String head = git(base, "rev-parse", "HEAD");
        try (Workspace ws = workspaces().isolate("run-d", base, null, Isolation.CLONE)) {
            assertThat(ws.baseline().ref()).isEqualTo(head);
            assertThat(git(ws.dir(), "rev-parse", "HEAD")).isEqualTo(head);
        }
    }

    @Test
    void aDirtyBaselineIsIsolatedFromItsCommittedStateAndSaysSo() throws Exception {
        Path base = repo(tmp.resolve("base"));
        write(base, "README.md", "uncommitted edit\n");
        write(base, "scratch.txt", "untracked\n");
        Map<String, String> before = fingerprint(base);
        try (Workspace ws = workspaces().isolate("run-dirty", base, null, Isolation.CLONE)) {
            assertThat(ws.baseline().dirty()).isTrue();
            assertThat(ws.baseline().dirtyNote()).contains("uncommitted").contains(ws.baseline().commit());
            assertThat(ws.dir().resolve("README.md")).hasContent("hello");
            assertThat(ws.dir().resolve("scratch.txt")).doesNotExist();
        }
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void rejectsAPathThatIsNotAGitRepository() throws Exception {
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        assertThatThrownBy(() -> workspaces().inspect(plain, null))
                .isInstanceOf(NotAGitRepositoryException.class)
                .hasMessageContaining(plain.toString()).hasMessageContaining("not a usable git repository");
        assertThatThrownBy(() -> workspaces().inspect(tmp.resolve("missing"), null))
                .isInstanceOf(NotAGitRepositoryException.class);
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        git(empty, "init", "-q");
        assertThatThrownBy(() -> workspaces().inspect(empty, null))
                .isInstanceOf(NotAGitRepositoryException.class).hasMessageContaining("no commit");
    }

    @Test
    void rejectsAnUnknownRef() {
        Path base = repo(tmp.resolve("base"));
        assertThatThrownBy(() -> workspaces().inspect(base, "no-such-branch"))
                .isInstanceOf(UnknownRefException.class)
                .hasMessageContaining("'no-such-branch'").hasMessageContaining(base.getFileName().toString());
        assertThatThrownBy(() -> workspaces().inspect(base, "main..:bad^^{"))
                .isInstanceOf(UnknownRefException.class);
    }

    @Test
    void rejectsAStateDirThatCannotBeWritten() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        Workspaces w = Workspaces.builder().stateDir(file.resolve("state")).build();
        assertThatThrownBy(() -> w.isolate("run-x", base, null, Isolation.CLONE))
                .isInstanceOf(StateDirNotWritableException.class)
                .hasMessageContaining(file.resolve("state").toString());
    }

    @Test
    void aFailedIsolationLeavesNothingBehind() {
        Path base = repo(tmp.resolve("base"));
        Map<String, String> before = fingerprint(base);
        Baseline bogus = new Baseline(base, "main", "0123456789012345678901234567890123456789", "main", false);
        Workspaces w = workspaces();
        for (Isolation mode : Isolation.values()) {
            assertThatThrownBy(() -> w.isolate("run-f-" + mode, bogus, mode)).isInstanceOf(WorkspaceException.class);
            assertThat(w.stateDir().resolve("runs/run-f-" + mode)).doesNotExist();
        }
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void cleanupNeverFollowsASymlinkOutOfTheStateDir() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("precious.txt"), "keep me");
        Workspace ws = workspaces().isolate("run-s", base, null, Isolation.CLONE);
        Files.createSymbolicLink(ws.dir().resolve("link-out"), outside);
        Files.createSymbolicLink(ws.scratchDir().resolve("file-link"), outside.resolve("precious.txt"));
        ws.close();
        assertThat(outside.resolve("precious.txt")).hasContent("keep me");
        assertThat(ws.runDir()).doesNotExist();
    }

    @Test
    void safeDeleteRefusesTargetsOutsideTheRoot() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(root.resolve("escape"), outside);
        assertThatThrownBy(() -> SafeDelete.deleteBelow(root, outside)).isInstanceOf(WorkspaceException.class)
                .hasMessageContaining("not below");
        assertThatThrownBy(() -> SafeDelete.deleteBelow(root, root)).isInstanceOf(WorkspaceException.class);
        Files.createDirectories(outside.resolve("inner"));
        assertThatThrownBy(() -> SafeDelete.deleteBelow(root, root.resolve("escape/inner")))
                .isInstanceOf(WorkspaceException.class).hasMessageContaining("not below");
        assertThat(outside.resolve("inner")).isDirectory();
        SafeDelete.deleteBelow(root, root.resolve("escape"));
        assertThat(root.resolve("escape")).doesNotExist();
        assertThat(outside).isDirectory();
    }
}
