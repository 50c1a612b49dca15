package dev.harness4j.aider;

import static dev.harness4j.aider.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real launch script with {@code /bin/sh} in real clones and worktrees. */
class LaunchScriptTest {
    /** Stands in for aider: prints the identity its git would commit with, then makes an aider file. */
    private static final List<String> FAKE_AIDER = List.of("sh", "-c",
            "git config user.name; git config user.email; mkdir -p .aider.tags.cache.v4; echo x > .aider.chat.history.md");

    @TempDir
    Path tmp;
    private Path baseline;
    private Path script;
    private Path scratchHome;
    private Path userHome;

    @BeforeEach
    void setUp() throws Exception {
        baseline = GitRepos.baseline(tmp.resolve("baseline"));
        script = tmp.resolve("scratch/aider-launch.sh");
        Files.createDirectories(script.getParent());
        Files.writeString(script, AiderLaunch.SCRIPT);
        scratchHome = Files.createDirectories(tmp.resolve("scratch/aider-home"));
        userHome = Files.createDirectories(tmp.resolve("user-home"));
        Files.writeString(userHome.resolve(".gitconfig"), "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n");
    }

    private String launch(Path workspace, Map<String, String> extraEnv) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", script.toString()));
        cmd.addAll(FAKE_AIDER);
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "HOME", scratchHome.toString(), AiderLaunch.USER_HOME_ENV, userHome.toString()));
        env.putAll(extraEnv);
        return GitRepos.run(cmd, env, workspace);
    }

    @Test
    void keepsAiderFilesOutOfAClonesStatusAndExcludesThemOnlyOnce() throws Exception {
        Path clone = tmp.resolve("clone");
        git(tmp, "clone", "-q", baseline.toString(), clone.toString());

        launch(clone, Map.of());
        launch(clone, Map.of());

        assertThat(git(clone, "status", "--porcelain")).isEmpty();
        assertThat(Files.readAllLines(clone.resolve(".git/info/exclude"))).containsOnlyOnce(".aider*");
        assertThat(Files.readString(baseline.resolve(".git/info/exclude"))).doesNotContain(".aider*");
    }

    @Test
    void keepsAiderFilesOutOfAWorktreesStatus() throws Exception {
        Path worktree = tmp.resolve("worktree");
        git(baseline, "worktree", "add", "-q", "--detach", worktree.toString());

        launch(worktree, Map.of());

        assertThat(git(worktree, "status", "--porcelain")).isEmpty();
        assertThat(git(worktree, "check-ignore", ".aider.chat.history.md")).isEqualTo(".aider.chat.history.md\n");
    }

    @Test
    void handsAiderTheUsersIdentityWithoutWritingItIntoTheRepositoryConfig() throws Exception {
        Path worktree = tmp.resolve("worktree");
        git(baseline, "worktree", "add", "-q", "--detach", worktree.toString());
        String configBefore = Files.readString(baseline.resolve(".git/config"));

        String printed = launch(worktree, Map.of());

        assertThat(printed).isEqualTo("Ada Lovelace\nada@example.com\n");
        assertThat(Files.readString(baseline.resolve(".git/config"))).isEqualTo(configBefore);
    }

    @Test
    void fallsBackToAHarness4jIdentityWhenTheUserHasNone() throws Exception {
        Path clone = tmp.resolve("clone");
        git(tmp, "clone", "-q", baseline.toString(), clone.toString());

        String printed = launch(clone, Map.of(AiderLaunch.USER_HOME_ENV, Files.createDirectories(tmp.resolve("empty")).toString()));

        assertThat(printed).isEqualTo("harness4j\nharness4j@localhost\n");
    }

    @Test
    void keepsGitConfigThatTheEnvironmentAlreadyCarries() throws Exception {
        Path clone = tmp.resolve("clone");
        git(tmp, "clone", "-q", baseline.toString(), clone.toString());
        List<String> cmd = List.of("/bin/sh", script.toString(), "sh", "-c",
                "git config core.abbrev; git config user.name; echo \"$GIT_CONFIG_COUNT\"");

        String printed = GitRepos.run(cmd, Map.of("HOME", scratchHome.toString(),
                AiderLaunch.USER_HOME_ENV, userHome.toString(),
                "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.abbrev", "GIT_CONFIG_VALUE_0", "12"), clone);

        assertThat(printed).isEqualTo("12\nAda Lovelace\n3\n");
    }
}
