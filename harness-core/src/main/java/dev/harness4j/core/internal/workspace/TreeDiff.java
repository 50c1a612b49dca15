package dev.harness4j.core.internal.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.QuotedString;

/**
 * {@code git diff --stat=200 --patch --no-renames <base> <tree>} in process (JGit), for the small
 * changes most runs make: it saves the git process that dominates capturing them. The patch is
 * a unified diff with git's headers ({@code git apply} takes it), hunks found by Myers' algorithm
 * as git's default; the stat has git's layout (name, count, {@code +-} graph scaled to the width,
 * {@code Bin A -> B bytes}) and git's summary line.
 *
 * <p>Declines (returns {@code null}, for the git binary to diff) where git's output could
 * differ: more than {@value #MAX_FILES} files or a blob over {@value #MAX_BLOB_BYTES} bytes, a
 * {@code .gitattributes} file in the new tree or among the changes (diff drivers, {@code
 * binary}, eol), a submodule among the changes, a text with a lone carriage return (binary to
 * JGit, text to git), a path whose type changed (file and symlink), attributes outside the tree
 * ({@code info/attributes}, the user's attributes file), or a configuration that changes git's
 * diff output. Its {@code index} lines abbreviate ids to 7 digits, where git may use more in a
 * repository of many objects. Stateless.
 */
final class TreeDiff {
    static final int MAX_FILES = 500;
    static final int MAX_BLOB_BYTES = 1 << 20;
    static final int STAT_WIDTH = 200;

    /** What was written: the summary line, the line counts and the changed paths. */
    record Result(String summary, int insertions, int deletions, List<String> paths) {}

    private TreeDiff() {}

    /**
     * Writes the patch and the stat of {@code base..tree}.
     *
     * @return what it wrote, or {@code null} (nothing written) when the git binary should diff
     */
    static Result write(Repository r, ObjectId baseTree, ObjectId tree, Path patch, Path stat) throws IOException {
        if (configChangesGitDiff(r) || attributesOutsideTheTree(r) || hasAttributes(r, tree)) {
            return null;
        }
        ByteArrayOutputStream patchText = new ByteArrayOutputStream();
        try (ObjectReader reader = r.newObjectReader(); DiffFormatter fmt = new DiffFormatter(patchText)) {
            fmt.setRepository(r);
            fmt.setDetectRenames(false);
            fmt.setDiffAlgorithm(DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.MYERS));
            fmt.setDiffComparator(RawTextComparator.DEFAULT);
            fmt.setOldPrefix("a/");
            fmt.setNewPrefix("b/");
            fmt.setAbbreviationLength(7);
            List<DiffEntry> entries = fmt.scan(baseTree, tree);
            if (entries.size() > MAX_FILES || typeChanged(entries)) {
                return null;
            }
            List<StatLine> lines = new ArrayList<>();
            int insertions = 0;
            int deletions = 0;
            List<String> paths = new ArrayList<>();
            for (DiffEntry e : entries) {
                String path = e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
                if (path.endsWith(Constants.DOT_GIT_ATTRIBUTES) || e.getOldMode() == FileMode.GITLINK
                        || e.getNewMode() == FileMode.GITLINK) {
                    return null;
                }
                byte[] a = blob(reader, e.getOldId());
                byte[] b = blob(reader, e.getNewId());
                if (a == null || b == null || hasLoneCarriageReturn(a) || hasLoneCarriageReturn(b)) {
                    return null;
                }
                paths.add(path);
                boolean binary = RawText.isBinary(a) || RawText.isBinary(b);
                if (binary) {
                    boolean sameContent = e.getOldId().equals(e.getNewId()); // a mode change: git says just "Bin"
                    lines.add(sameContent ? StatLine.binary(path, 0, 0) : StatLine.binary(path, a.length, b.length));
                    int start = patchText.size();
                    fmt.format(e);
                    fmt.flush();
                    gitHeaders(patchText, start, e, !sameContent);
                    continue;
                }
                // one diff per file: its edits give the counts, and the same edits are printed
                FileHeader fh = fmt.toFileHeader(e);
                int added = 0;
                int removed = 0;
                for (Edit edit : fh.toEditList()) {
                    added += edit.getLengthB();
                    removed += edit.getLengthA();
                }
                insertions += added;
                deletions += removed;
                lines.add(StatLine.text(path, added, removed));
                int start = patchText.size();
                fmt.format(fh, new RawText(a), new RawText(b));
                fmt.flush();
                gitHeaders(patchText, start, e, false);
            }
            fmt.flush();
            String summary = summary(entries.size(), insertions, deletions);
            Files.write(patch, patchText.toByteArray());
            Files.writeString(stat, entries.isEmpty() ? "" : StatLine.render(lines, STAT_WIDTH) + summary + "\n");
            return new Result(summary, insertions, deletions, paths);
        }
    }

    /** A blob's bytes ({@code 0} bytes for the zero id of an added or deleted side); null when too big. */
    private static byte[] blob(ObjectReader reader, AbbreviatedObjectId id) throws IOException {
        if (id == null || !id.isComplete() || id.toObjectId().equals(ObjectId.zeroId())) {
            return new byte[0];
        }
        var loader = reader.open(id.toObjectId(), Constants.OBJ_BLOB);
        return loader.getSize() > MAX_BLOB_BYTES ? null : loader.getCachedBytes();
    }

    /** A {@code \r} not followed by {@code \n} (in the first 8000 bytes git and JGit look at). */
    private static boolean hasLoneCarriageReturn(byte[] raw) {
        int n = Math.min(raw.length, 8000);
        for (int i = 0; i < n; i++) {
            if (raw[i] == '\r' && (i + 1 >= raw.length || raw[i + 1] != '\n')) {
                return true;
            }
        }
        return false;
    }

    /**
     * Makes the headers JGit wrote for one file (from {@code start} to its first hunk) git's:
     * no {@code ---}/{@code +++} lines for a change without hunks (an empty file, a binary file),
     * git's {@code Binary files a/x and b/x differ} for JGit's {@code Binary files differ} (no
     * such line at all when {@code binaryLine} is false: a binary file whose mode alone changed), and a
     * tab after a {@code ---}/{@code +++} name holding a space. The headers are ASCII (names are
     * quoted); the hunks' bytes are left as they are.
     */
    private static void gitHeaders(ByteArrayOutputStream out, int start, DiffEntry e, boolean binaryLine) {
        byte[] all = out.toByteArray();
        int end = indexOf(all, "\n@@ ".getBytes(StandardCharsets.US_ASCII), start);
        boolean hunks = end >= 0;
        end = hunks ? end + 1 : all.length;
        String header = new String(all, start, end - start, StandardCharsets.ISO_8859_1);
        StringBuilder fixed = new StringBuilder();
        for (String line : header.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            boolean name = line.startsWith("--- ") || line.startsWith("+++ ");
            if (name && !hunks) {
                continue;
            }
            if (name && line.indexOf(' ', 4) >= 0 && !line.endsWith("/dev/null")) {
                line = line + "\t";
            }
            if (line.equals("Binary files differ") && !binaryLine) {
                continue; // git writes no such line when only the mode changed
            }
            if (line.equals("Binary files differ")) {
                String oldName = e.getChangeType() == DiffEntry.ChangeType.ADD ? "/dev/null"
                        : QuotedString.GIT_PATH.quote("a/" + e.getOldPath());
                String newName = e.getChangeType() == DiffEntry.ChangeType.DELETE ? "/dev/null"
                        : QuotedString.GIT_PATH.quote("b/" + e.getNewPath());
                line = "Binary files " + oldName + " and " + newName + " differ";
            }
            fixed.append(line).append('\n');
        }
        out.reset();
        out.write(all, 0, start);
        byte[] f = fixed.toString().getBytes(StandardCharsets.ISO_8859_1);
        out.write(f, 0, f.length);
        out.write(all, end, all.length - end);
    }

    private static int indexOf(byte[] data, byte[] needle, int from) {
        outer:
        for (int i = from; i <= data.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Settings (from the repository, user or system configuration git reads) that change git's diff output. */
    private static boolean configChangesGitDiff(Repository r) {
        var c = r.getConfig();
        for (String key : List.of("noprefix", "mnemonicPrefix", "relative", "context", "interHunkContext",
                "suppressBlankEmpty", "algorithm", "srcPrefix", "dstPrefix", "statGraphWidth", "statNameWidth")) {
            if (c.getString("diff", null, key) != null) {
                return true;
            }
        }
        return c.getString("core", null, "quotePath") != null || c.getString("core", null, "attributesFile") != null
                || c.getString("core", null, "abbrev") != null
                || c.getString("core", null, "autocrlf") != null || c.getString("core", null, "eol") != null;
    }

    /** A path both deleted and added: a file that became a symlink or the reverse, one line to git. */
    private static boolean typeChanged(List<DiffEntry> entries) {
        Set<String> seen = new HashSet<>();
        for (DiffEntry e : entries) {
            String path = e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
            if (!seen.add(path)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Attributes git would read from outside the trees: the repository's {@code info/attributes}
     * and the user's {@code $XDG_CONFIG_HOME/git/attributes} (default {@code ~/.config/git/attributes}).
     */
    private static boolean attributesOutsideTheTree(Repository r) {
        java.io.File common = r.getCommonDirectory() != null ? r.getCommonDirectory() : r.getDirectory();
        if (common != null && Files.exists(common.toPath().resolve("info").resolve("attributes"))) {
            return true;
        }
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path config = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".config");
        return Files.exists(config.resolve("git").resolve("attributes"));
    }

    /** Whether the tree holds a {@code .gitattributes} file anywhere. */
    private static boolean hasAttributes(Repository r, ObjectId tree) throws IOException {
        try (TreeWalk tw = new TreeWalk(r)) {
            tw.addTree(tree);
            tw.setRecursive(true);
            while (tw.next()) {
                if (tw.getNameString().equals(Constants.DOT_GIT_ATTRIBUTES)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Git's summary line: {@code " 2 files changed, 3 insertions(+), 1 deletion(-)"}. */
    static String summary(int files, int insertions, int deletions) {
        StringBuilder s = new StringBuilder().append(' ').append(files).append(files == 1 ? " file changed" : " files changed");
        if (insertions > 0 || deletions == 0) {
            s.append(", ").append(insertions).append(insertions == 1 ? " insertion(+)" : " insertions(+)");
        }
        if (deletions > 0 || insertions == 0) {
            s.append(", ").append(deletions).append(deletions == 1 ? " deletion(-)" : " deletions(-)");
        }
        return s.toString();
    }

    /** One file's line of the stat. */
    record StatLine(String name, boolean binary, long added, long removed) {
        static StatLine text(String path, int added, int removed) {
            return new StatLine(QuotedString.GIT_PATH.quote(path), false, added, removed);
        }

        /** {@code added} and {@code removed} are the new and old sizes, as git prints them. */
        static StatLine binary(String path, long oldSize, long newSize) {
            return new StatLine(QuotedString.GIT_PATH.quote(path), true, newSize, oldSize);
        }

        /** The lines as {@code git diff --stat=<width>} lays them out (show_stats in git's diff.c). */
        static String render(List<StatLine> lines, int width) {
            int maxLen = 0;
            long maxChange = 0;
            int numberWidth = 0;
            int binWidth = 0;
            for (StatLine l : lines) {
                maxLen = Math.max(maxLen, l.name.length());
                if (l.binary) {
                    binWidth = Math.max(binWidth, 14 + decimalWidth(l.added) + decimalWidth(l.removed));
                    numberWidth = 3;
                } else {
                    maxChange = Math.max(maxChange, l.added + l.removed);
                }
            }
            numberWidth = Math.max(numberWidth, decimalWidth(maxChange));
            width = Math.max(width, 16 + 6 + numberWidth);
            long graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
            long nameWidth = maxLen;
            if (nameWidth + numberWidth + 6 + graphWidth > width) {
                if (graphWidth > width * 3L / 8 - numberWidth - 6) {
                    graphWidth = Math.max(6, width * 3L / 8 - numberWidth - 6);
                }
                if (nameWidth > width - numberWidth - 6 - graphWidth) {
                    nameWidth = width - numberWidth - 6 - graphWidth;
                } else {
                    graphWidth = width - numberWidth - 6 - nameWidth;
                }
            }
            StringBuilder out = new StringBuilder();
            for (StatLine l : lines) {
                String name = l.name;
                String prefix = "";
                if (nameWidth < name.length()) {
                    prefix = "...";
                    int keep = (int) Math.max(0, nameWidth - 3);
                    name = name.substring(name.length() - keep);
                    int slash = name.indexOf('/');
                    if (slash >= 0) {
                        name = name.substring(slash);
                    }
                }
                out.append(' ').append(prefix).append(name);
                out.append(" ".repeat((int) Math.max(0, nameWidth - prefix.length() - name.length()))).append(" |");
                if (l.binary) {
                    out.append(' ').append(pad("Bin", numberWidth));
                    if (l.added != 0 || l.removed != 0) {
                        out.append(' ').append(l.removed).append(" -> ").append(l.added).append(" bytes");
                    }
                    out.append('\n');
                    continue;
                }
                long total = l.added + l.removed;
                out.append(' ').append(pad(Long.toString(total), numberWidth)).append(total > 0 ? " " : "");
                long add = l.added;
                long del = l.removed;
                if (graphWidth <= maxChange) {
                    long scaledTotal = scale(add + del, graphWidth, maxChange);
                    if (scaledTotal < 2 && add > 0 && del > 0) {
                        scaledTotal = 2;
                    }
                    if (add < del) {
                        add = scale(add, graphWidth, maxChange);
                        del = scaledTotal - add;
                    } else {
                        del = scale(del, graphWidth, maxChange);
                        add = scaledTotal - del;
                    }
                }
                out.append("+".repeat((int) add)).append("-".repeat((int) del)).append('\n');
            }
            return out.toString();
        }

        private static long scale(long it, long width, long maxChange) {
            return it == 0 ? 0 : 1 + (it * (width - 1) / maxChange);
        }

        private static String pad(String s, int width) {
            return " ".repeat(Math.max(0, width - s.length())) + s;
        }

        private static int decimalWidth(long n) {
            return Long.toString(n).length();
        }
    }
}
