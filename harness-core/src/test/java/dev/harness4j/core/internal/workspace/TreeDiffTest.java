package dev.harness4j.core.internal.workspace;

import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process diff against {@code git diff} itself, on the kinds of change a run makes. */
class TreeDiffTest {
    @TempDir Path tmp;

    private static String lines(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    /** Hunk headers without git's function-name context, which JGit does not print. */
    private static String withoutHunkContext(String patch) {
        return patch.replaceAll("(?m)^(@@ [^@]+ @@).*$", "$1");
    }

    @Test
    void statAndPatchMatchGitDiffAndThePatchRebuildsTheTree() throws Exception {
        Path base = repo(tmp.resolve("base"));
        write(base, "src/long.txt", lines(1, 40));
        write(base, "gone.txt", "to be deleted\n");
        write(base, "mode.sh", "#!/bin/sh\n");
        write(base, "art.bin", "\0\1\2old");
        commitAll(base, "more files");
        Workspaces workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        try (Workspace ws = workspaces.isolate("run-d", base, null, Isolation.CLONE)) {
            Path dir = ws.dir();
            write(dir, "src/long.txt", lines(1, 10) + "changed 11\n" + lines(12, 30) + lines(32, 40) + "appended\n");
            Files.delete(dir.resolve("gone.txt"));
            dir.resolve("mode.sh").toFile().setExecutable(true);
            write(dir, "art.bin", "\0\1\2new and longer");
            write(dir, "new/empty.txt", "");
            write(dir, "new/no-newline.txt", "no newline at the end");
            write(dir, "new/wide.txt", lines(1, 300)); // more than the stat's width: the graph is scaled
            write(dir, "new/ünïcode name.txt", "quoted path\n");
            commitAll(dir, "agent work");
            write(dir, "uncommitted.txt", "also counts\n");

            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            String tree = c.tree();
            String base0 = ws.baseline().commit();
            try (Repository r = new FileRepositoryBuilder().setWorkTree(dir.toFile()).build()) {
                assertThat(TreeDiff.write(r, r.parseCommit(ObjectId.fromString(base0)).getTree(),
                        ObjectId.fromString(tree), tmp.resolve("p"), tmp.resolve("s"))).as("diffed in process").isNotNull();
            }
            assertThat(Files.readString(c.diffstat()).strip())
                    .isEqualTo(git(dir, "diff", "--stat=200", "--no-renames", base0, tree));
            assertThat(withoutHunkContext(Files.readString(c.patch())).strip())
                    .isEqualTo(withoutHunkContext(git(dir, "diff", "--no-renames", base0, tree)));
            String numstat = git(dir, "diff", "--numstat", "--no-renames", base0, tree);
            int ins = numstat.lines().filter(l -> !l.startsWith("-")).mapToInt(l -> Integer.parseInt(l.split("\t")[0])).sum();
            int del = numstat.lines().filter(l -> !l.startsWith("-")).mapToInt(l -> Integer.parseInt(l.split("\t")[1])).sum();
            assertThat(c.changes().insertions()).isEqualTo(ins);
            assertThat(c.changes().deletions()).isEqualTo(del);
            assertThat(c.changes().files()).containsExactlyElementsOf(
                    git(dir, "-c", "core.quotePath=false", "diff", "--name-only", "--no-renames", base0, tree).lines().toList());

            // the patch applied to the base commit gives the captured tree (binary files aside: no full index)
            Path check = tmp.resolve("check");
            git(tmp, "clone", "-q", base.toString(), check.toString());
            git(check, "apply", "--index", "--exclude=art.bin", c.patch().toString());
            Files.write(check.resolve("art.bin"), Files.readAllBytes(dir.resolve("art.bin")));
            git(check, "add", "art.bin");
            assertThat(git(check, "write-tree")).isEqualTo(tree);
        }
    }

    /** Changes TreeDiff writes git's way or leaves to git; either way the result is git's. */
    @Test
    void modeOnlyBinaryTypeChangeAndRepositoryAttributesComeOutAsGitsOwn() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Files.write(base.resolve("tool.bin"), new byte[] {0, 1, 2, 3});
        write(base, "link-me.txt", "a file, later a symlink\n");
        commitAll(base, "binary and a file");
        Workspaces workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        for (String scenario : new String[] {"binary-mode", "type-change", "info-attributes"}) {
            try (Workspace ws = workspaces.isolate("run-" + scenario, base, null, Isolation.CLONE)) {
                Path dir = ws.dir();
                switch (scenario) {
                    case "binary-mode" -> dir.resolve("tool.bin").toFile().setExecutable(true);
                    case "type-change" -> {
                        Files.delete(dir.resolve("link-me.txt"));
                        Files.createSymbolicLink(dir.resolve("link-me.txt"), Path.of("README.md"));
                    }
                    default -> {
                        write(dir, ".git/info/attributes", "*.dat -diff\n");
                        write(dir, "data.dat", "text git is told to treat as binary\n");
                    }
                }
                CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
                String b = ws.baseline().commit();
                assertThat(Files.readString(c.diffstat()).strip()).as(scenario)
                        .isEqualTo(git(dir, "diff", "--stat=200", "--no-renames", b, c.tree()));
                assertThat(withoutHunkContext(Files.readString(c.patch())).strip()).as(scenario)
                        .isEqualTo(withoutHunkContext(git(dir, "diff", "--no-renames", b, c.tree())));
                assertThat(c.changes().files()).as(scenario).doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void aChangeWithAttributesIsLeftToGit() throws Exception {
        Path base = repo(tmp.resolve("base"));
        write(base, ".gitattributes", "*.txt diff=custom\n");
        commitAll(base, "attributes");
        Workspaces workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        try (Workspace ws = workspaces.isolate("run-a", base, null, Isolation.CLONE)) {
            write(ws.dir(), "a.txt", "a\n");
            CapturedChanges c = new ChangeCollector(workspaces).collect(ws);
            try (Repository r = new FileRepositoryBuilder().setWorkTree(ws.dir().toFile()).build()) {
                assertThat(TreeDiff.write(r, r.parseCommit(ObjectId.fromString(ws.baseline().commit())).getTree(),
                        ObjectId.fromString(c.tree()), tmp.resolve("p"), tmp.resolve("s"))).isNull();
            }
            assertThat(Files.readString(c.patch())).contains("+a"); // by the git binary
            assertThat(c.changes().files()).containsExactly("a.txt");
        }
    }

    @Test
    void summaryLineIsGits() {
        assertThat(TreeDiff.summary(1, 1, 0)).isEqualTo(" 1 file changed, 1 insertion(+)");
        assertThat(TreeDiff.summary(2, 0, 3)).isEqualTo(" 2 files changed, 3 deletions(-)");
        assertThat(TreeDiff.summary(1, 0, 0)).isEqualTo(" 1 file changed, 0 insertions(+), 0 deletions(-)");
        assertThat(TreeDiff.summary(3, 2, 1)).isEqualTo(" 3 files changed, 2 insertions(+), 1 deletion(-)");
    }
}
