package dev.harness4j.core.internal.workspace;

import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChangeCollectorTest {
    @TempDir Path tmp;

    private Workspaces workspaces;

    private Workspace isolate(Isolation mode) {
        workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        return workspaces.isolate("run-1", repo(tmp.resolve("base")), null, mode);
    }

    @Test
    void nothingChangedIsNeitherMovedNorDirtyWithAnEmptyPatch() throws Exception {
        try (Workspace ws = isolate(Isolation.CLONE)) {
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            assertThat(c.changes()).isEqualTo(GitChanges.none(ws.baseline().commit()));
            assertThat(c.changes().changed()).isFalse();
            assertThat(Files.size(c.patch())).isZero();
            assertThat(Files.size(c.diffstat())).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void repositoriesWithoutACommitMadeInTheCheckoutAreLeftOutAndSaidTheRestIsCaptured(Isolation mode) throws Exception {
        try (Workspace ws = isolate(mode)) {
            write(ws.dir(), "kept.txt", "the agent's work\n");
            for (String nested : new String[] {"app", "deep/er/lib", "with space"}) {
                write(ws.dir(), nested + "/inside.txt", "not capturable\n");
                git(ws.dir().resolve(nested), "init", "-q");
            }
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);

            assertThat(c.changes().dirty()).isTrue();
            assertThat(c.changes().files()).containsExactly("kept.txt");
            assertThat(Files.readString(c.patch())).contains("+the agent's work").doesNotContain("not capturable");
            assertThat(c.notes()).hasSize(3).allSatisfy(n -> assertThat(n).contains("git repository without a commit"));
            assertThat(String.join("\n", c.notes())).contains("app/ ").contains("deep/er/lib/ ").contains("with space/ ");
        }
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void aCommitMovesHeadAndCountsFilesAndLines(Isolation mode) throws Exception {
        try (Workspace ws = isolate(mode)) {
            write(ws.dir(), "src/app.txt", "line 1\nline two\nline 3\n");
            write(ws.dir(), "added.txt", "a\nb\n");
            commitAll(ws.dir(), "agent work");
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            GitChanges g = c.changes();
            assertThat(g.headMoved()).isTrue();
            assertThat(g.dirty()).isFalse();
            assertThat(g.headCommit()).isEqualTo(git(ws.dir(), "rev-parse", "HEAD"));
            assertThat(g.files()).containsExactlyInAnyOrder("src/app.txt", "added.txt");
            assertThat(g.insertions()).isEqualTo(4);
            assertThat(g.deletions()).isEqualTo(1);
            assertThat(Files.readString(c.patch())).contains("+line two").contains("-line 2").contains("+++ b/added.txt");
            assertThat(Files.readString(c.diffstat())).contains("2 files changed").contains("added.txt   | 2 ++")
                    .doesNotContain("diff --git").doesNotContain("\n\n");
            assertThat(Files.readString(c.patch())).startsWith("diff --git ").doesNotContain("files changed");
        }
    }

    @Test
    void anUntrackedFileAloneMakesTheTreeDirtyAndIsInThePatchWhileTheIndexStaysUntouched() throws Exception {
        try (Workspace ws = isolate(Isolation.CLONE)) {
            byte[] indexBefore = Files.readAllBytes(ws.dir().resolve(".git/index"));
            write(ws.dir(), "notes/untracked.txt", "fresh\n");
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            assertThat(c.changes().headMoved()).isFalse();
            assertThat(c.changes().dirty()).isTrue();
            assertThat(c.changes().files()).containsExactly("notes/untracked.txt");
            assertThat(Files.readString(c.patch())).contains("+fresh");
            assertThat(Files.readAllBytes(ws.dir().resolve(".git/index"))).isEqualTo(indexBefore);
            assertThat(git(ws.dir(), "status", "--porcelain")).isEqualTo("?? notes/");
        }
    }

    @Test
    void ignoredFilesAndTheScratchDirDoNotCount() throws Exception {
        try (Workspace ws = isolate(Isolation.CLONE)) {
            write(ws.dir(), ".git/info/exclude", "*.log\n");
            write(ws.dir(), "debug.log", "noise\n");
            Files.writeString(ws.scratchDir().resolve("config.json"), "{}");
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            assertThat(c.changes().changed()).isFalse();
        }
    }

    /**
     * The snapshot is the tree {@code git add -A} would stage, whichever way it is taken: in
     * memory (a small checkout) or through a copy of the index with the git binary (more than
     * {@link ChangeCollector#IN_PROCESS_MAX_ENTRIES} entries).
     */
    @ParameterizedTest
    @ValueSource(ints = {0, ChangeCollector.IN_PROCESS_MAX_ENTRIES + 1})
    void theSnapshotIsTheTreeGitAddAllWouldStage(int extraFiles) throws Exception {
        Path base = repo(tmp.resolve("base"));
        for (int i = 0; i < extraFiles; i++) {
            write(base, "bulk/f" + i + ".txt", "f" + i + "\n");
        }
        write(base, "tracked.log", "tracked although ignored later\n");
        write(base, "run.sh", "#!/bin/sh\n");
        commitAll(base, "files");
        workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        try (Workspace ws = workspaces.isolate("run-s", base, null, Isolation.CLONE)) {
            Path dir = ws.dir();
            write(dir, ".git/info/exclude", "*.log\nbuild/\n");
            write(dir, "tracked.log", "tracked and changed\n");
            write(dir, "new.log", "ignored\n");
            write(dir, "build/out.txt", "ignored directory\n");
            write(dir, "src/deep/new.txt", "untracked\n");
            Files.delete(dir.resolve("README.md"));
            dir.resolve("run.sh").toFile().setExecutable(true);
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            git(dir, "add", "-A");
            assertThat(c.tree()).isEqualTo(git(dir, "write-tree"));
            assertThat(c.changes().files()).containsExactly("README.md", "run.sh", "src/deep/new.txt", "tracked.log");
        }
    }

    /** Cases where {@code git add -A} keeps or records entries its own way; the snapshot must agree. */
    @ParameterizedTest
    @ValueSource(strings = {"submodule-not-checked-out", "skip-worktree", "file-mode-off", "repository-in-tracked-dir",
        "index-deleted"})
    void theSnapshotAgreesWithGitAddAllOnItsSpecialCases(String scenario) throws Exception {
        Path base = repo(tmp.resolve("base"));
        if (scenario.equals("submodule-not-checked-out")) {
            Path sub = repo(tmp.resolve("sub-src"));
            git(base, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.toString(), "sm");
            commitAll(base, "a submodule");
        }
        if (scenario.equals("repository-in-tracked-dir")) {
            write(base, "nested/x.txt", "tracked\n");
            commitAll(base, "nested dir");
        }
        workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        try (Workspace ws = workspaces.isolate("run-e", base, null, Isolation.CLONE)) {
            Path dir = ws.dir();
            switch (scenario) {
                case "skip-worktree" -> {
                    git(dir, "update-index", "--skip-worktree", "README.md");
                    Files.delete(dir.resolve("README.md"));
                }
                case "file-mode-off" -> {
                    git(dir, "config", "core.fileMode", "false");
                    write(dir, "tool.sh", "#!/bin/sh\n");
                    dir.resolve("tool.sh").toFile().setExecutable(true);
                }
                case "index-deleted" -> {
                    write(dir, ".git/info/exclude", "*.md\n"); // tracked at HEAD, ignored now
                    Files.delete(dir.resolve(".git/index"));
                }
                case "repository-in-tracked-dir" -> {
                    git(dir.resolve("nested"), "init", "-q");
                    commitAll(dir.resolve("nested"), "a repository inside");
                }
                default -> { }
            }
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            if (scenario.equals("submodule-not-checked-out") || scenario.equals("skip-worktree")) {
                assertThat(c.changes().changed()).as("nothing changed").isFalse();
            }
            if (scenario.equals("index-deleted")) { // no index: as if it were HEAD's, so README.md stays
                assertThat(git(dir, "ls-tree", "-r", "--name-only", c.tree())).contains("README.md");
                return;
            }
            git(dir, "add", "-A");
            assertThat(c.tree()).isEqualTo(git(dir, "write-tree"));
        }
    }

    @Test
    void binaryFilesAreMarkedNotInlinedAndDeletionsAndUncommittedEditsCount() throws Exception {
        try (Workspace ws = isolate(Isolation.WORKTREE)) {
            Files.write(ws.dir().resolve("blob.bin"), new byte[] {0, 1, 2, 3, 0, (byte) 0xff});
            Files.delete(ws.dir().resolve("README.md"));
            write(ws.dir(), "src/app.txt", "line 1\nline 2\nline 3\n");
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            assertThat(c.changes().dirty()).isTrue();
            assertThat(c.changes().files()).containsExactlyInAnyOrder("blob.bin", "README.md", "src/app.txt");
            assertThat(c.changes().insertions()).isEqualTo(1);
            assertThat(c.changes().deletions()).isEqualTo(1);
            assertThat(Files.readString(c.patch())).contains("Binary files /dev/null and b/blob.bin differ");
        }
    }
}
