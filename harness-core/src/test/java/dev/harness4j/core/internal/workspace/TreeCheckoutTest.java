package dev.harness4j.core.internal.workspace;

import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.workspace.Baseline;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process first checkout against {@code git read-tree --reset -u HEAD}, and what it leaves to git. */
class TreeCheckoutTest {
    @TempDir Path tmp;

    private Workspaces workspaces() {
        return Workspaces.builder().stateDir(tmp.resolve("state")).build();
    }

    private Path baseline() throws Exception {
        Path base = repo(tmp.resolve("base"));
        write(base, "bin/run.sh", "#!/bin/sh\necho run\n");
        base.resolve("bin/run.sh").toFile().setExecutable(true);
        write(base, "deep/er/still/x.txt", "x\n");
        write(base, "empty.txt", "");
        write(base, "crlf.txt", "a\r\nb\r\n");
        Files.createSymbolicLink(base.resolve("link"), Path.of("deep/er/still/x.txt"));
        commitAll(base, "modes, a symlink, nesting, CRLF");
        return base;
    }

    /** Every path below {@code dir} but {@code .git}: its kind, mode and content or link target. */
    private static Map<String, String> tree(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(p -> !dir.relativize(p).toString().startsWith(".git")).toList()) {
                String rel = dir.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    out.put(rel, "link " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(rel, "dir");
                } else {
                    out.put(rel, (Files.isExecutable(p) ? "x " : "- ") + Files.readString(p));
                }
            }
        }
        return out;
    }

    @Test
    void itChecksOutWhatReadTreeDoesWithACleanStatus() throws Exception {
        Path base = baseline();
        Baseline b = workspaces().inspect(base, null);
        Path byGit = tmp.resolve("by-git");
        assertThat(LocalClone.write(b, byGit, null)).isTrue();
        git(byGit, "read-tree", "--reset", "-u", "HEAD");
        Path direct = tmp.resolve("direct");
        assertThat(LocalClone.write(b, direct, null)).isTrue();

        assertThat(TreeCheckout.checkout(direct, b.commit())).as("checked out in process").isTrue();

        assertThat(tree(direct)).isEqualTo(tree(byGit)).containsEntry("bin/run.sh", "x #!/bin/sh\necho run\n")
                .containsEntry("link", "link deep/er/still/x.txt").containsEntry("crlf.txt", "- a\r\nb\r\n");
        assertThat(git(direct, "ls-files", "-s")).isEqualTo(git(byGit, "ls-files", "-s"));
        assertThat(git(direct, "status", "--porcelain", "--untracked-files=all")).isEmpty();
        assertThat(git(direct, "diff", "--cached", "--stat")).isEmpty();
    }

    @Test
    void aRunsCloneIsCheckedOutInProcessAndItsChangesAreCapturedAsBefore() throws Exception {
        Path base = baseline();
        try (Workspace ws = workspaces().isolate("run-tc", base, null, Isolation.CLONE)) {
            assertThat(tree(ws.dir())).isEqualTo(tree(base));
            write(ws.dir(), "bin/run.sh", "#!/bin/sh\necho changed\n");
            assertThat(git(ws.dir(), "status", "--porcelain")).isEqualTo("M bin/run.sh");
        }
    }

    @Test
    void anAttributesFileASubmoduleOrATransformingConfigAreLeftToGitHavingWrittenNothing() throws Exception {
        Path base = baseline();
        write(base, "sub/.gitattributes", "*.txt text eol=lf\n");
        commitAll(base, "attributes");
        Baseline b = workspaces().inspect(base, null);
        Path withAttributes = tmp.resolve("attrs");
        assertThat(LocalClone.write(b, withAttributes, null)).isTrue();
        assertThat(TreeCheckout.checkout(withAttributes, b.commit())).isFalse();
        try (Stream<Path> files = Files.list(withAttributes)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(".git");
        }

        Path plain = repo(tmp.resolve("plain"));
        Baseline p = workspaces().inspect(plain, null);
        Path autocrlf = tmp.resolve("autocrlf");
        assertThat(LocalClone.write(p, autocrlf, null)).isTrue();
        git(autocrlf, "config", "core.autocrlf", "true");
        assertThat(TreeCheckout.checkout(autocrlf, p.commit())).isFalse();

        Path withSub = repo(tmp.resolve("with-sub"));
        git(withSub, "-c", "protocol.file.allow=always", "submodule", "add", "-q", plain.toString(), "vendored");
        commitAll(withSub, "a submodule");
        Baseline s = workspaces().inspect(withSub, null);
        Path subClone = tmp.resolve("sub-clone");
        assertThat(LocalClone.write(s, subClone, null)).isTrue();
        assertThat(TreeCheckout.checkout(subClone, s.commit())).isFalse();
    }
}
