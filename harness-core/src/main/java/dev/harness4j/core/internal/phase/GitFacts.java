package dev.harness4j.core.internal.phase;

import dev.harness4j.api.GitChanges;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import dev.harness4j.core.PhaseReports;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * What git says about a phase, whatever the agent claims: committed (HEAD moved from the base
 * commit and nothing left uncommitted), the last commit's message, the files changed.
 *
 * @param committed whether the work was committed, all of it
 * @param commitMessage HEAD's message when HEAD moved, else {@code null}
 * @param changes the captured changes
 */
record GitFacts(boolean committed, String commitMessage, GitChanges changes) {
    /** How many changed paths a git-derived summary names. */
    static final int MAX_NAMED_FILES = 20;

    /**
     * Reads HEAD's message from the workspace (JGit); a message that cannot be read is {@code null}.
     *
     * @param treeWithoutReport the captured tree when the report the agent committed was removed
     *     from it (that removal alone does not make the work uncommitted), else {@code null}
     */
    static GitFacts of(Path workspace, GitChanges changes, String treeWithoutReport) {
        String message = null;
        boolean clean = !changes.dirty();
        if (changes.headMoved()) {
            try (Repository r = new FileRepositoryBuilder().setWorkTree(workspace.toFile()).setMustExist(true).build();
                    RevWalk walk = new RevWalk(r)) {
                RevCommit head = walk.parseCommit(ObjectId.fromString(changes.headCommit()));
                message = head.getFullMessage().strip();
                if (!clean && treeWithoutReport != null) {
                    clean = onlyTheReportDiffers(r, head, ObjectId.fromString(treeWithoutReport));
                }
            } catch (IOException | RuntimeException e) {
                message = null; // the report says committed; only the message is missing
            }
        }
        return new GitFacts(changes.headMoved() && clean, message, changes);
    }

    private static boolean onlyTheReportDiffers(Repository r, RevCommit head, ObjectId tree) throws IOException {
        try (TreeWalk tw = new TreeWalk(r)) {
            tw.addTree(head.getTree());
            tw.addTree(tree);
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                if (!tw.getPathString().equals(PhaseReports.REPORT_FILE)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether {@code path} is in HEAD's tree (false when git cannot say). */
    static boolean tracked(Path workspace, String path) {
        try (Repository r = new FileRepositoryBuilder().setWorkTree(workspace.toFile()).setMustExist(true).build();
                RevWalk walk = new RevWalk(r)) {
            ObjectId head = r.resolve(org.eclipse.jgit.lib.Constants.HEAD);
            if (head == null) {
                return false;
            }
            try (var tw = TreeWalk.forPath(r, path, walk.parseCommit(head).getTree())) {
                return tw != null;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A one-paragraph account of the changes, from git alone. */
    String summary() {
        List<String> files = changes.files();
        if (files.isEmpty()) {
            return "No file changed.";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(files.size()).append(files.size() == 1 ? " file" : " files").append(" changed (+")
                .append(changes.insertions()).append(" -").append(changes.deletions()).append("), ")
                .append(committed ? "committed" : changes.headMoved() ? "partly committed" : "not committed")
                .append(": ").append(String.join(", ", files.subList(0, Math.min(files.size(), MAX_NAMED_FILES))));
        if (files.size() > MAX_NAMED_FILES) {
            sb.append(" and ").append(files.size() - MAX_NAMED_FILES).append(" more");
        }
        return sb.append('.').toString();
    }
}
