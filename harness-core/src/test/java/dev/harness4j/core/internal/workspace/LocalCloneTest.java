package dev.harness4j.core.internal.workspace;

import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.workspace.Baseline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process clone against what {@code git clone --local} makes, and the baselines it leaves to git. */
class LocalCloneTest {
    @TempDir Path tmp;

    private Workspaces workspaces() {
        return Workspaces.builder().stateDir(tmp.resolve("state")).build();
    }

    /** A baseline with two branches, a lightweight and an annotated tag, a packed and a loose object. */
    private Path richBaseline() throws Exception {
        Path base = repo(tmp.resolve("base"));
        git(base, "tag", "v1");
        git(base, "-c", "user.name=t", "-c", "user.email=t@t", "tag", "-a", "v1-annotated", "-m", "annotated");
        git(base, "branch", "other");
        git(base, "gc", "-q"); // packs what exists so far
        write(base, "src/later.txt", "later\n");
        write(base, "run.sh", "#!/bin/sh\necho run\n");
        base.resolve("run.sh").toFile().setExecutable(true);
        commitAll(base, "loose objects on top of the pack");
        return base;
    }

    @Test
    void theCloneIsWhatGitCloneLocalMakesWithPushesToOriginBlocked() throws Exception {
        Path base = richBaseline();
        Path byGit = tmp.resolve("by-git");
        git(tmp, "clone", "-q", "--local", "--template=", "--branch", "main", base.toString(), byGit.toString());
        assertThat(LocalClone.write(workspaces().inspect(base, null), tmp.resolve("direct"), null))
                .as("written in process, not by the git clone fallback").isTrue();
        try (Workspace ws = workspaces().isolate("run-lc", base, null, Isolation.CLONE)) {
            assertThat(Files.exists(ws.dir().resolve(".git/objects/info/alternates"))).as("no shared object store").isFalse();
            assertThat(git(ws.dir(), "for-each-ref", "--format=%(refname) %(objectname)"))
                    .isEqualTo(git(byGit, "for-each-ref", "--format=%(refname) %(objectname)"));
            assertThat(git(ws.dir(), "symbolic-ref", "HEAD")).isEqualTo("refs/heads/main");
            assertThat(git(ws.dir(), "rev-parse", "--abbrev-ref", "main@{upstream}")).isEqualTo("origin/main");
            assertThat(git(ws.dir(), "status", "--porcelain")).isEmpty();
            assertThat(git(ws.dir(), "ls-files", "-s")).isEqualTo(git(byGit, "ls-files", "-s"));
            assertThat(ws.dir().resolve("run.sh")).isExecutable();
            assertThat(localConfig(ws.dir())).isEqualTo(localConfig(byGit, "remote.origin.pushurl="
                    + ws.scratchDir().resolve(OriginPushGuard.NO_PUSH)));
            git(ws.dir(), "fsck", "--strict", "--no-progress");
            try (var objects = Files.list(ws.dir().resolve(".git/objects"))) {
                assertThat(objects.map(p -> p.getFileName().toString())).as("loose objects went into a pack")
                        .containsExactly("pack");
            }
            assertThat(git(ws.dir(), "count-objects", "-v")).contains("count: 0").contains("packs: 2");

            // the clone owns its objects: the baseline dropping every object cannot break it
            git(base, "tag", "-d", "v1", "v1-annotated");
            git(base, "branch", "-D", "other");
            git(base, "reflog", "expire", "--expire=now", "--all");
            git(base, "gc", "-q", "--prune=now");
            Files.walk(base.resolve(".git/objects")).filter(Files::isRegularFile)
                    .filter(p -> !p.toString().contains("/info/")).forEach(p -> p.toFile().delete());
            git(ws.dir(), "fsck", "--strict", "--no-progress");
            assertThat(git(ws.dir(), "log", "--format=%s", "-1", "v1-annotated")).isNotEmpty();
        }
    }

    @Test
    void moreLooseObjectsThanAPackTakesAreHardLinked() throws Exception {
        Path base = repo(tmp.resolve("base"));
        for (int i = 0; i <= LocalClone.PACK_LOOSE_MAX; i++) {
            write(base, "many/f" + i + ".txt", "file " + i + "\n");
        }
        commitAll(base, "many loose objects");
        try (Workspace ws = workspaces().isolate("run-many", base, null, Isolation.CLONE)) {
            assertThat(git(ws.dir(), "count-objects", "-v")).contains("packs: 0").doesNotContain("count: 0\n");
            assertThat(git(ws.dir(), "status", "--porcelain")).isEmpty();
            git(ws.dir(), "fsck", "--strict", "--no-progress");
        }
    }

    @Test
    void aCommitIdIsCheckedOutDetached() throws Exception {
        Path base = richBaseline();
        String first = git(base, "rev-parse", "HEAD~1");
        Path byGit = tmp.resolve("by-git-detached");
        git(tmp, "clone", "-q", "--local", "--template=", "--no-checkout", base.toString(), byGit.toString());
        git(byGit, "checkout", "-q", "--detach", first);
        try (Workspace ws = workspaces().isolate("run-lcd", base, first, Isolation.CLONE)) {
            assertThat(git(ws.dir(), "for-each-ref", "--format=%(refname) %(objectname)"))
                    .isEqualTo(git(byGit, "for-each-ref", "--format=%(refname) %(objectname)"));
            assertThat(localConfig(ws.dir())).isEqualTo(localConfig(byGit, "remote.origin.pushurl="
                    + ws.scratchDir().resolve(OriginPushGuard.NO_PUSH)));
            assertThat(git(ws.dir(), "rev-parse", "HEAD")).isEqualTo(first);
            assertThat(git(ws.dir(), "rev-parse", "--abbrev-ref", "HEAD")).isEqualTo("HEAD");
            assertThat(ws.dir().resolve("src/later.txt")).doesNotExist();
            assertThat(git(ws.dir(), "status", "--porcelain")).isEmpty();
        }
    }

    @Test
    void aShallowBaselineAndOneWithAlternatesAreClonedByGit() throws Exception {
        Path base = richBaseline();
        Path shallow = tmp.resolve("shallow");
        git(tmp, "clone", "-q", "--depth", "1", "file://" + base, shallow.toString());
        Path borrowing = tmp.resolve("borrowing");
        git(tmp, "clone", "-q", "--shared", base.toString(), borrowing.toString());
        for (Path baseline : new Path[] {shallow, borrowing}) {
            Baseline b = workspaces().inspect(baseline, null);
            assertThat(LocalClone.write(b, tmp.resolve("unused"), null)).as(baseline.toString()).isFalse();
            assertThat(tmp.resolve("unused")).doesNotExist();
            try (Workspace ws = workspaces().isolate("run-" + baseline.getFileName(), baseline, null, Isolation.CLONE)) {
                assertThat(git(ws.dir(), "rev-parse", "HEAD")).isEqualTo(b.commit());
                assertThat(git(ws.dir(), "status", "--porcelain")).isEmpty();
                assertThat(git(ws.dir(), "config", "remote.origin.pushurl"))
                        .isEqualTo(ws.scratchDir().resolve(OriginPushGuard.NO_PUSH).toString());
            }
        }
    }

    /** {@code git config --local --list} and {@code more}, sorted, one per line. */
    private static String localConfig(Path repo, String... more) {
        return Stream.concat(Arrays.stream(git(repo, "config", "--local", "--list").split("\n")), Arrays.stream(more))
                .sorted().collect(Collectors.joining("\n"));
    }
}
