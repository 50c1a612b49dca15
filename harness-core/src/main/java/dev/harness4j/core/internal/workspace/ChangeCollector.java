package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.WorkspaceException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what a run changed in its workspace relative to the base commit: HEAD moved, dirty tree
 * (untracked files count, ignored ones do not), files, insertions, deletions, and writes {@code
 * diff.patch} and {@code diffstat.txt} into the workspace's {@link Workspace#ioDir()}.
 *
 * <p>The workspace's own index is never touched: its state is snapshotted as {@code git add -A}
 * would stage it, into an in-memory copy of the index written as a tree (JGit, for a checkout of
 * up to {@value #IN_PROCESS_MAX_ENTRIES} index entries), else into a copy of the index file with
 * the git binary and {@code GIT_INDEX_FILE}. The base commit is diffed against that tree in
 * process by {@link TreeDiff} for a small change, else with one {@code git diff --stat
 * --patch}, whose summary line gives the insertions and deletions.
 * Thread-safe.
 */
public final class ChangeCollector {
    private static final Logger log = LoggerFactory.getLogger(ChangeCollector.class);
    private static final List<String> DIFF_OPTS = List.of("--no-renames", "--no-color", "--no-ext-diff", "--no-textconv");

    /**
     * Up to this many index entries the snapshot ({@code add --all}, write the tree) is taken in
     * process with JGit, which saves two git processes on a small checkout; above it the git
     * binary hashes a large tree faster.
     */
    static final int IN_PROCESS_MAX_ENTRIES = 2_000;

    /** git's error for a directory holding a repository without a commit ({@code LC_ALL=C}). */
    private static final Pattern NO_COMMIT_CHECKED_OUT =
            Pattern.compile("(?m)^error: '(.+)/' does not have a commit checked out$");
    /** How many commit-less repositories {@link #snapshotWithGit} leaves out before it gives up. */
    private static final int MAX_EMPTY_REPOSITORIES = 100;
    private static final Pattern INSERTIONS = Pattern.compile("(\\d+) insertions?\\(\\+\\)");
    private static final Pattern DELETIONS = Pattern.compile("(\\d+) deletions?\\(-\\)");

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
        String what = "reading the changes of run " + ws.runId() + " in " + dir;
        // one JGit repository for the reads: HEAD, its tree, where the index is (linked worktrees included)
        try (Repository r = new FileRepositoryBuilder().setWorkTree(dir.toFile()).setMustExist(true).build();
                RevWalk walk = new RevWalk(r)) {
            return collect(ws, r, walk, what);
        } catch (IOException e) {
            throw new WorkspaceException(what + ": " + e, e);
        }
    }

    private CapturedChanges collect(Workspace ws, Repository r, RevWalk walk, String what) throws IOException {
        Path dir = ws.dir();
        String base = ws.baseline().commit();
        ObjectId id = r.resolve(Constants.HEAD);
        if (id == null) {
            throw new WorkspaceException(what + ": HEAD names no commit");
        }
        String head = id.name();
        String headTree = walk.parseCommit(id).getTree().name();
        String tree = snapshotInMemory(r);
        boolean small = tree != null;
        List<String> notes = new ArrayList<>();
        if (tree == null) {
            tree = snapshotThroughIndexCopy(ws, r.getIndexFile().toPath(), what, notes);
        }

        boolean headMoved = !head.equals(base);
        boolean dirty = !tree.equals(headTree);
        Path patch = ws.ioDir().resolve("diff.patch");
        Path stat = ws.ioDir().resolve("diffstat.txt");
        List<String> files = new ArrayList<>();
        int insertions = 0;
        int deletions = 0;
        TreeDiff.Result inProcess;
        if (!headMoved && !dirty) {
            write(patch, "");
            write(stat, "");
        } else if (small && (inProcess = diffInProcess(r, walk, base, tree, patch, stat)) != null) {
            insertions = inProcess.insertions();
            deletions = inProcess.deletions();
            files.addAll(inProcess.paths());
        } else {
            // one diff gives both: the stat, a blank line, then the patch from the first "diff --git"
            Path both = ws.ioDir().resolve("diff-with-stat.txt");
            git.run(dir, Map.of(), both, concat(List.of("diff", "--stat=200", "--patch"), DIFF_OPTS, List.of(base, tree, "--")))
                    .orThrow(what);
            String summary = split(both, stat, patch);
            deleteQuietly(both);
            insertions = count(summary, INSERTIONS);
            deletions = count(summary, DELETIONS);
            files.addAll(changedPaths(r, walk, base, tree));
        }
        GitChanges changes = new GitChanges(base, head, headMoved, dirty, files, insertions, deletions);
        return new CapturedChanges(changes, tree, patch, stat, notes);
    }

    /** {@link TreeDiff} for a small change, else {@code null} (and nothing written) for the git binary. */
    private static TreeDiff.Result diffInProcess(Repository r, RevWalk walk, String base, String tree, Path patch,
            Path stat) {
        try {
            return TreeDiff.write(r, walk.parseCommit(ObjectId.fromString(base)).getTree(), ObjectId.fromString(tree),
                    patch, stat);
        } catch (IOException | RuntimeException e) {
            log.debug("diffing {}..{} in process failed ({}); using git diff", base, tree, e.toString());
            return null;
        }
    }

    /**
     * {@code git add --all} into an in-memory copy of the index, written as a tree, for a
     * checkout of up to {@value #IN_PROCESS_MAX_ENTRIES} index entries: the working tree walked
     * against the index, whose stat data spares hashing unchanged files; untracked ignored files
     * and directories left out (tracked ones stay), deleted files dropped (submodules not checked
     * out and entries outside a sparse checkout kept). Nothing is written but the new blobs.
     * {@code null} where the index copy and git should be used instead: no index file, a bigger
     * checkout, unmerged entries, a repository that appeared inside the checkout, or anything JGit
     * cannot read.
     */
    private static String snapshotInMemory(Repository r) {
        try (ObjectInserter ins = r.newObjectInserter(); ObjectReader reader = ins.newReader();
                TreeWalk tw = new TreeWalk(r, reader)) {
            if (!r.getIndexFile().exists()) {
                return null; // the git path starts from HEAD's tree, as git add -A into a fresh index would not
            }
            DirCache index = r.readDirCache();
            if (index.getEntryCount() > IN_PROCESS_MAX_ENTRIES || index.hasUnmergedPaths()) {
                return null;
            }
            boolean fileModes = r.getConfig().getBoolean("core", null, "filemode", true);
            DirCache snapshot = DirCache.newInCore();
            DirCacheBuilder builder = snapshot.builder();
            int di = tw.addTree(new DirCacheIterator(index));
            FileTreeIterator files = new FileTreeIterator(r);
            files.setDirCacheIterator(tw, di);
            int fi = tw.addTree(files);
            while (tw.next()) {
                DirCacheIterator indexed = tw.getTree(di, DirCacheIterator.class);
                WorkingTreeIterator file = tw.getTree(fi, WorkingTreeIterator.class);
                if (indexed == null && (file == null || file.isEntryIgnored())) {
                    continue; // untracked and ignored (a whole ignored directory is skipped unread)
                }
                if (tw.isSubtree()) {
                    tw.enterSubtree(); // also a tracked directory gone from the checkout: see what of it stays
                    continue;
                }
                DirCacheEntry old = indexed != null ? indexed.getDirCacheEntry() : null;
                if (file == null) {
                    // gone from the checkout: deleted, unless git add keeps it (a submodule not
                    // checked out, an entry outside a sparse checkout)
                    if (old != null && (old.getFileMode() == FileMode.GITLINK || old.isSkipWorkTree())) {
                        builder.add(old);
                    }
                    continue;
                }
                FileMode mode = file.getIndexFileMode(indexed); // honours core.fileMode and core.symlinks, as git add does
                if (old == null && !fileModes && mode == FileMode.EXECUTABLE_FILE) {
                    mode = FileMode.REGULAR_FILE;
                }
                DirCacheEntry e = new DirCacheEntry(tw.getRawPath());
                if (mode == FileMode.GITLINK || (old != null && old.getFileMode() == FileMode.GITLINK)) {
                    if (mode != FileMode.GITLINK || old == null || old.getFileMode() != FileMode.GITLINK
                            || file.getEntryObjectId().equals(ObjectId.zeroId())) {
                        return null; // a repository appeared in the checkout, or a submodule changed kind: git's rules
                    }
                    e.setObjectId(file.getEntryObjectId()); // a submodule: the commit checked out in it, as git add records it
                } else if (old != null && !file.isModified(old, true, reader)) {
                    e.setObjectId(indexed.getEntryObjectId());
                } else {
                    try (InputStream in = file.openEntryStream()) {
                        e.setObjectId(ins.insert(Constants.OBJ_BLOB, file.getEntryContentLength(), in));
                    }
                }
                e.setFileMode(mode);
                builder.add(e);
            }
            builder.finish();
            ObjectId tree = snapshot.writeTree(ins);
            ins.flush();
            return tree.name();
        } catch (IOException | RuntimeException e) {
            log.debug("JGit could not snapshot {} in memory ({}); using a copy of the index", r.getWorkTree(), e.toString());
            return null;
        }
    }

    /**
     * {@code git add --all} into a copy of the index (it keeps the stat cache, so only what
     * changed is hashed) and {@code git write-tree}, with the git binary.
     */
    private String snapshotThroughIndexCopy(Workspace ws, Path index, String what, List<String> notes) {
        Path dir = ws.dir();
        Path snapshotIndex = ws.ioDir().resolve("snapshot.index");
        try {
            if (Files.exists(index)) {
                Files.copy(index, snapshotIndex, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(snapshotIndex);
            }
        } catch (IOException e) {
            throw new WorkspaceException(what + ": could not copy the index " + index, e);
        }
        String tree = snapshotWithGit(dir, snapshotIndex, what, notes);
        deleteQuietly(snapshotIndex);
        return tree;
    }

    /** The number of entries in an index file (its header), or 0 when there is none. */
    static int indexEntries(Path index) {
        if (!Files.exists(index)) {
            return 0;
        }
        try (InputStream in = Files.newInputStream(index)) {
            byte[] h = in.readNBytes(12); // "DIRC", version, entry count (big-endian)
            if (h.length < 12) {
                return Integer.MAX_VALUE;
            }
            return ((h[8] & 0xff) << 24) | ((h[9] & 0xff) << 16) | ((h[10] & 0xff) << 8) | (h[11] & 0xff);
        } catch (IOException e) {
            return Integer.MAX_VALUE; // let the git binary read it and report
        }
    }

    /**
     * {@code git add --all} into the snapshot index and {@code git write-tree}, with the git
     * binary. A git repository without a commit inside the checkout (an agent's {@code git init})
     * makes {@code git add} fail, naming one such directory at a time: each is left out by an
     * exclude pathspec and said in {@code notes}, so the rest of the work is still captured.
     */
    private String snapshotWithGit(Path dir, Path snapshotIndex, String what, List<String> notes) {
        Map<String, String> env = Map.of("GIT_INDEX_FILE", snapshotIndex.toString());
        if (!Files.exists(snapshotIndex)) {
            git.run(dir, env, List.of("read-tree", "HEAD")).orThrow(what);
        }
        List<String> add = new ArrayList<>(List.of("add", "--all", "--", "."));
        List<String> left = new ArrayList<>();
        GitCli.Result added;
        while (!(added = git.run(dir, env, add)).ok() && left.size() < MAX_EMPTY_REPOSITORIES) {
            Matcher m = NO_COMMIT_CHECKED_OUT.matcher(added.stderr());
            if (!m.find() || left.contains(m.group(1))) {
                break;
            }
            left.add(m.group(1));
            add.add(":(exclude,literal)" + m.group(1));
        }
        added.orThrow(what);
        for (String path : left) {
            notes.add(path + "/ is a git repository without a commit (made during the run?): its files are not in the"
                    + " captured changes");
        }
        return git.run(dir, env, List.of("write-tree")).orThrow(what).out();
    }

    /** The paths that differ between the base commit's tree and {@code tree} (no rename detection). */
    private static List<String> changedPaths(Repository r, RevWalk walk, String base, String tree) throws IOException {
        try (TreeWalk tw = new TreeWalk(r)) {
            tw.addTree(walk.parseCommit(ObjectId.fromString(base)).getTree());
            tw.addTree(ObjectId.fromString(tree));
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            List<String> out = new ArrayList<>();
            while (tw.next()) {
                out.add(tw.getPathString());
            }
            return out;
        }
    }

    private static int count(String summary, Pattern p) {
        Matcher m = p.matcher(summary);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * Splits {@code git diff --stat --patch} output into the stat part and the patch part; returns
     * the stat's summary line ({@code N files changed, I insertions(+), D deletions(-)}).
     */
    private static String split(Path both, Path stat, Path patch) {
        String summary = "";
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
                        summary = new String(l, StandardCharsets.UTF_8);
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
        return summary;
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
