package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.WorkspaceException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitCliTest {
    @TempDir Path tmp;

    /** A git that hangs silently, as a push to a stalled remote does, with a child holding stdout open. */
    private Path hangingGit() throws Exception {
        Path script = tmp.resolve("git");
        Files.writeString(script, "#!/bin/sh\nsleep 60 &\necho $! > '" + tmp.resolve("child.pid") + "'\nwait\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void aSilentlyHangingGitWithCapturedStdoutTimesOutAndIsKilledWithItsChildren() throws Exception {
        GitCli git = new GitCli(hangingGit().toString(), Duration.ofMillis(700));
        long start = System.nanoTime();
        assertThatThrownBy(() -> git.run(tmp, List.of("push", "origin", "main")))
                .isInstanceOf(WorkspaceException.class)
                .hasMessageContaining("push origin main")
                .hasMessageContaining("did not finish within 700 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        long child = Long.parseLong(Files.readString(tmp.resolve("child.pid")).strip());
        ProcessHandle.of(child).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void capturedStdoutIsStillReturnedWhole() throws Exception {
        Path script = tmp.resolve("git");
        Files.writeString(script, "#!/bin/sh\nhead -c 300000 /dev/zero | tr '\\\\0' a\necho oops >&2\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        GitCli.Result r = new GitCli(script.toString(), Duration.ofSeconds(30)).run(tmp, List.of("status"));
        assertThat(r.stdout()).hasSize(300000);
        assertThat(r.stderr()).isEqualTo("oops\n");
    }
}
