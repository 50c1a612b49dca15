package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.BranchPush;
import static dev.harness4j.core.GitFixture.commitAll;
import static dev.harness4j.core.GitFixture.fingerprint;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BranchPusherTest {
    @TempDir Path tmp;

    private final Workspaces workspaces() {
        return Workspaces.builder().stateDir(tmp.resolve("state")).build();
    }

    private Path baselineWithBareRemote() throws Exception {
        Path remote = Files.createDirectories(tmp.resolve("remote.git"));
        git(remote, "init", "-q", "--bare");
        Path base = repo(tmp.resolve("base"));
        git(base, "remote", "add", "origin", "../remote.git"); // relative, as git allows
        git(base, "push", "-q", "origin", "main");
        return base;
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void pushesCommittedWorkToAHarnesstestsBranchOfTheBaselinesRemote(Isolation mode) throws Exception {
        Path base = baselineWithBareRemote();
        Map<String, String> before = fingerprint(base);
        Workspaces w = workspaces();
        try (Workspace ws = w.isolate("run-p", base, null, mode)) {
            write(ws.dir(), "feature.txt", "done\n");
            commitAll(ws.dir(), "feature");
            CapturedChanges c = new ChangeCollector(w).collect(ws);
            Optional<BranchPush> push = new BranchPusher(w, BranchPusher.DEFAULT_PUSH_TIMEOUT).push(ws, c, "fake__model-1");
            assertThat(push).get().satisfies(p -> {
                assertThat(p.pushed()).isTrue();
                assertThat(p.name()).isEqualTo("harnesstests/fake__model-1");
                assertThat(p.remote()).isEqualTo("origin");
                assertThat(p.error()).isNull();
                assertThat(p.commit()).isEqualTo(c.changes().headCommit());
            });
        }
        assertThat(git(tmp.resolve("remote.git"), "show", "harnesstests/fake__model-1:feature.txt")).isEqualTo("done");
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void uncommittedWorkIsPushedAsASnapshotCommitWithoutMovingTheWorkspaceHead() throws Exception {
        Path base = baselineWithBareRemote();
        Workspaces w = workspaces();
        try (Workspace ws = w.isolate("run-s", base, null, Isolation.CLONE)) {
            write(ws.dir(), "wip.txt", "not committed\n");
            CapturedChanges c = new ChangeCollector(w).collect(ws);
            BranchPush p = new BranchPusher(w, BranchPusher.DEFAULT_PUSH_TIMEOUT).push(ws, c, "h__m").orElseThrow();
            assertThat(p.pushed()).isTrue();
            assertThat(p.commit()).isNotEqualTo(c.changes().headCommit());
            assertThat(git(ws.dir(), "rev-parse", "HEAD")).isEqualTo(c.changes().headCommit());
            assertThat(git(ws.dir(), "status", "--porcelain")).isEqualTo("?? wip.txt");
        }
        Path remote = tmp.resolve("remote.git");
        assertThat(git(remote, "show", "harnesstests/h__m:wip.txt")).isEqualTo("not committed");
        assertThat(git(remote, "rev-parse", "harnesstests/h__m^")).isEqualTo(git(base, "rev-parse", "HEAD"));
    }

    @Test
    void noRemoteMeansNoPush() {
        Path base = repo(tmp.resolve("base"));
        Workspaces w = workspaces();
        try (Workspace ws = w.isolate("run-n", base, null, Isolation.CLONE)) {
            CapturedChanges c = new ChangeCollector(w).collect(ws);
            assertThat(new BranchPusher(w, BranchPusher.DEFAULT_PUSH_TIMEOUT).push(ws, c, "h__m")).isEmpty();
        }
    }

    @Test
    void anUnreachableRemoteGivesAnErrorNotAnException() throws Exception {
        Path base = repo(tmp.resolve("base"));
        git(base, "remote", "add", "origin", tmp.resolve("no-such-remote.git").toString());
        Workspaces w = workspaces();
        try (Workspace ws = w.isolate("run-u", base, null, Isolation.CLONE)) {
            write(ws.dir(), "x.txt", "x\n");
            commitAll(ws.dir(), "x");
            CapturedChanges c = new ChangeCollector(w).collect(ws);
            BranchPush p = new BranchPusher(w, BranchPusher.DEFAULT_PUSH_TIMEOUT).push(ws, c, "h__m").orElseThrow();
            assertThat(p.pushed()).isFalse();
            assertThat(p.error()).contains("no-such-remote.git");
        }
    }

    @Test
    void aTokenInTheRemoteUrlNeverAppearsInThePushError() throws Exception {
        Path base = repo(tmp.resolve("base"));
        git(base, "remote", "add", "origin", "https://x-access-token:ghs_T0kenValue42@127.0.0.1:1/owner/repo.git");
        Workspaces w = workspaces();
        try (Workspace ws = w.isolate("run-t", base, null, Isolation.CLONE)) {
            CapturedChanges c = new ChangeCollector(w).collect(ws);
            BranchPush p = new BranchPusher(w, BranchPusher.DEFAULT_PUSH_TIMEOUT).push(ws, c, "h__m").orElseThrow();
            assertThat(p.pushed()).isFalse();
            assertThat(p.error()).contains("https://127.0.0.1:1/owner/repo.git")
                    .doesNotContain("ghs_T0kenValue42").doesNotContain("x-access-token");
        }
        assertThat(BranchPusher.remoteCredentials(base)).containsExactly("ghs_T0kenValue42");
    }

    @Test
    void userInfoIsStrippedFromSchemeAndScpLikeUrls() {
        assertThat(BranchPusher.withoutUserInfo("https://u:p%40ss@host/x.git")).isEqualTo("https://host/x.git");
        assertThat(BranchPusher.withoutUserInfo("ssh://git@host:22/x.git")).isEqualTo("ssh://host:22/x.git");
        assertThat(BranchPusher.withoutUserInfo("user:pass@host:x.git")).isEqualTo("host:x.git");
        assertThat(BranchPusher.withoutUserInfo("git@github.com:o/r.git")).isEqualTo("github.com:o/r.git");
        assertThat(BranchPusher.withoutUserInfo("/srv/git/r.git")).isEqualTo("/srv/git/r.git");
        assertThat(BranchPusher.credentialsIn("https://u:p%40ss@host/x.git")).containsExactlyInAnyOrder("p%40ss", "p@ss");
        assertThat(BranchPusher.credentialsIn("https://ghp_tokenAsUser@host/x.git")).containsExactly("ghp_tokenAsUser");
        assertThat(BranchPusher.credentialsIn("ssh://git@host/x.git")).isEmpty();
        assertThat(BranchPusher.credentialsIn("git@github.com:o/r.git")).isEmpty();
    }
}
