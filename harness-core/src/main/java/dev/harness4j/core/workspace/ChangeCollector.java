package dev.harness4j.core.workspace;

import dev.harness4j.api.GitChanges;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Reads what a run changed in its workspace relative to the base commit: HEAD moved, dirty tree
 * (untracked files count, ignored ones do not), files, insertions, deletions, and writes {@code
 * diff.patch} and {@code diffstat.txt} into the workspace's {@link Workspace#ioDir()}.
 *
 * <p>The workspace's own index is never touched: its state is snapshotted with {@code git add
 * -A} into a copy of the index ({@code GIT_INDEX_FILE}) and written as a tree, and everything is
 * diffed between the base commit and that tree. Thread-safe.
 */
public final class ChangeCollector {
    private static final List<String> DIFF_OPTS = List.of("--no-renames", "--no-color", "--no-ext-diff", "--no-textconv");

    private final GitCli git;

    public ChangeCollector(Workspaces workspaces) {
        this.git = Objects.requireNonNull(workspaces, "workspaces").git();
    }

    /**
     * Snapshots the workspace and writes {@code diff.patch} and {@code diffstat.txt}.
     *
     * @throws WorkspaceException when git cannot read the workspace (e.g. the harness broke it)
     */
    public CapturedChanges collect(Workspace ws) {
        Path dir = ws.dir();
        String base = ws.baseline().commit();
        String what = "reading the changes of run " + ws.runId() + " in " + dir;
        String head;
        String headTree;
        Path index;
        // read in-process (JGit): HEAD, its tree and where the index is (linked worktrees included)
        try (Repository r = new FileRepositoryBuilder().setWorkTree(dir.toFile()).setMustExist(true).build();
                RevWalk walk = new RevWalk(r)) {
            ObjectId id = r.resolve(Constants.HEAD);
            if (id == null) {
                throw new WorkspaceException(what + ": HEAD names no commit");
            }
            head = id.name();
            headTree = walk.parseCommit(id).getTree().name();
            index = r.getIndexFile().toPath();
        } catch (IOException e) {
            throw new WorkspaceException(what + ": " + e, e);
        }
        Path snapshotIndex = ws.ioDir().resolve("snapshot.index");
        try {
            if (Files.exists(index)) {
                // a copy keeps the stat cache, so add -A only hashes what changed
                Files.copy(index, snapshotIndex, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(snapshotIndex);
            }
        } catch (IOException e) {
            throw new WorkspaceException(what + ": could not copy the index " + index, e);
        }
        Map<String, String> env = Map.of("GIT_INDEX_FILE", snapshotIndex.toString());
        if (!Files.exists(snapshotIndex)) {
            git.run(dir, env, List.of("read-tree", "HEAD")).orThrow(what);
        }
        git.run(dir, env, List.of("add", "--all", "--", ".")).orThrow(what);
        String tree = git.run(dir, env, List.of("write-tree")).orThrow(what).out();
        deleteQuietly(snapshotIndex);

        boolean headMoved = !head.equals(base);
        boolean dirty = !tree.equals(headTree);
        Path patch = ws.ioDir().resolve("diff.patch");
        Path stat = ws.ioDir().resolve("diffstat.txt");
        List<String> files = new ArrayList<>();
        int insertions = 0;
        int deletions = 0;
        if (!headMoved && !dirty) {
            write(patch, "");
            write(stat, "");
        } else {
            byte[] numstat = git.run(dir, concat(List.of("diff", "--numstat", "-z"), DIFF_OPTS, List.of(base, tree, "--")))
                    .orThrow(what).stdout();
            for (String entry : new String(numstat, StandardCharsets.UTF_8).split("\0")) {
                if (entry.isEmpty()) {
                    continue;
                }
                String[] parts = entry.split("\t", 3);
                if (parts.length < 3) {
                    continue;
                }
                insertions += parseCount(parts[0]);
                deletions += parseCount(parts[1]);
                files.add(parts[2]);
            }
            // one diff gives both: the stat, a blank line, then the patch from the first "diff --git"
            Path both = ws.ioDir().resolve("diff-with-stat.txt");
            git.run(dir, Map.of(), both, concat(List.of("diff", "--stat=200", "--patch"), DIFF_OPTS, List.of(base, tree, "--")))
                    .orThrow(what);
            split(both, stat, patch);
            deleteQuietly(both);
        }
        GitChanges changes = new GitChanges(base, head, headMoved, dirty, files, insertions, deletions);
        return new CapturedChanges(changes, tree, patch, stat);
    }

    /** Splits {@code git diff --stat --patch} output into the stat part and the patch part. */
    private static void split(Path both, Path stat, Path patch) {
        byte[] marker = "diff --git ".getBytes(StandardCharsets.US_ASCII);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(both));
                OutputStream statOut = Files.newOutputStream(stat);
                OutputStream patchOut = new BufferedOutputStream(Files.newOutputStream(patch))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int c;
            boolean inPatch = false;
            byte[] pendingBlank = null;
            while (!inPatch && (c = in.read()) >= 0) {
                line.write(c);
                if (c != '\n') {
                    continue;
                }
                byte[] l = line.toByteArray();
                line.reset();
                if (startsWith(l, marker)) {
                    patchOut.write(l);
                    inPatch = true;
                } else {
                    if (pendingBlank != null) {
                        statOut.write(pendingBlank);
                    }
                    pendingBlank = l.length == 1 ? l : null; // the blank separator line is dropped
                    if (pendingBlank == null) {
                        statOut.write(l);
                    }
                }
            }
            if (!inPatch) {
                statOut.write(line.toByteArray());
            }
            in.transferTo(patchOut);
        } catch (IOException e) {
            throw new WorkspaceException("could not split " + both + " into " + stat + " and " + patch, e);
        }
    }

    private static boolean startsWith(byte[] l, byte[] prefix) {
        if (l.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (l[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int parseCount(String s) {
        return "-".equals(s) ? 0 : Integer.parseInt(s); // "-" marks a binary file
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        out.addAll(c);
        return out;
    }

    private static void write(Path p, String text) {
        try {
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new WorkspaceException("could not write " + p, e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a leftover temp index under the run dir is removed with the run dir
        }
    }
}
