package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.NotAGitRepositoryException;
import dev.harness4j.core.workspace.UnknownRefException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.IndexDiff;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a baseline is at a ref, read without changing anything: its top level, the commit, the
 * branch when the ref is one, and whether it has uncommitted changes (the committed state is then
 * what runs get). JGit in process; {@code git status} for a large index. Stateless.
 */
final class BaselineInspection {
    private static final Logger log = LoggerFactory.getLogger(BaselineInspection.class);

    private BaselineInspection() {}

    /**
     * Resolves a baseline repository at a ref without changing anything.
     *
     * @param repo a path inside a git checkout (its top level is used)
     * @param ref a branch, tag or commit-ish, or {@code null} for the current branch (the HEAD
     *     commit when HEAD is detached)
     * @throws NotAGitRepositoryException when {@code repo} is no git checkout or has no commit
     * @throws UnknownRefException when {@code ref} names no commit
     */
    static Baseline inspect(GitCli git, Path repo, String ref) {
        Objects.requireNonNull(repo, "repo");
        if (!Files.isDirectory(repo)) {
            throw new NotAGitRepositoryException(repo, "it is not a directory");
        }
        Path top;
        String commit;
        String effectiveRef;
        String branch = null;
        ObjectId headId;
        FileRepositoryBuilder rb = new FileRepositoryBuilder().findGitDir(repo.toFile());
        if (rb.getGitDir() == null) {
            throw new NotAGitRepositoryException(repo, "no .git directory was found in it or above it");
        }
        try (Repository r = rb.setMustExist(true).build()) {
            if (r.isBare()) {
                throw new NotAGitRepositoryException(repo, "it is a bare repository (no working tree)");
            }
            top = r.getWorkTree().toPath().toRealPath();
            Ref head = r.exactRef(Constants.HEAD);
            headId = head == null ? null : head.getObjectId();
            if (headId == null) {
                throw new NotAGitRepositoryException(repo, "it has no commit yet");
            }
            if (ref == null) {
                effectiveRef = head.isSymbolic() ? Repository.shortenRefName(head.getTarget().getName()) : headId.name();
                branch = head.isSymbolic() ? effectiveRef : null;
                commit = headId.name();
            } else {
                effectiveRef = ref;
                ObjectId id;
                try {
                    id = ref.isBlank() ? null : r.resolve(ref + "^{commit}");
                } catch (IOException | RuntimeException e) {
                    throw new UnknownRefException(top, ref);
                }
                if (id == null) {
                    throw new UnknownRefException(top, ref);
                }
                commit = id.name();
                Ref local = r.exactRef(ref.startsWith(Constants.R_HEADS) ? ref : Constants.R_HEADS + ref);
                branch = local != null && commit.equals(local.getObjectId().name())
                        ? Repository.shortenRefName(local.getName()) : null;
            }
        } catch (RepositoryNotFoundException e) {
            throw new NotAGitRepositoryException(repo, e.getMessage());
        } catch (IOException e) {
            throw new NotAGitRepositoryException(repo, "it could not be read: " + e);
        }
        boolean dirty = commit.equals(headId.name()) && isDirty(git, top);
        if (dirty) {
            log.info("baseline {} has uncommitted changes; isolating its committed state {} (ref {})",
                    top, commit, effectiveRef);
        }
        return new Baseline(top, effectiveRef, commit, branch, dirty);
    }

    private static boolean isDirty(GitCli git, Path top) {
        Boolean inProcess = isDirtyInProcess(top);
        if (inProcess != null) {
            return inProcess;
        }
        // --no-optional-locks: status must not refresh (write) the baseline's index
        GitCli.Result st = git.run(top, List.of("--no-optional-locks", "status", "--porcelain", "--untracked-files=normal"))
                .orThrow("checking whether baseline " + top + " has uncommitted changes");
        return st.stdout().length > 0;
    }

    /**
     * {@code git status} in process (JGit, which reads the index without refreshing it) for a
     * baseline of up to {@link ChangeCollector#IN_PROCESS_MAX_ENTRIES} index entries, saving a git
     * process; {@code null} for a larger one (the git binary is faster there) or when JGit fails.
     */
    private static Boolean isDirtyInProcess(Path top) {
        try (Repository r = new FileRepositoryBuilder().setWorkTree(top.toFile()).setMustExist(true).build()) {
            if (ChangeCollector.indexEntries(r.getIndexFile().toPath()) > ChangeCollector.IN_PROCESS_MAX_ENTRIES) {
                return null;
            }
            return new IndexDiff(r, Constants.HEAD, new FileTreeIterator(r)).diff();
        } catch (IOException | RuntimeException e) {
            log.debug("JGit could not read the status of {} ({}); using git status", top, e.toString());
            return null;
        }
    }
}
