package dev.harness4j.core.internal.workspace;

import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheCheckout;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The first checkout of a fresh clone ({@code git read-tree --reset -u HEAD}) done in process by
 * JGit, for a tree it checks out exactly as git would: up to {@value #MAX_ENTRIES} files, none of
 * them a {@code .gitattributes} or a submodule, and no configuration (the clone's, the user's or
 * the system's) that makes git transform files on checkout ({@code core.autocrlf}, {@code
 * core.eol}, {@code core.attributesFile}, {@code core.symlinks=false}, {@code core.fileMode=false}).
 * It saves the run a {@code git} process, which is most of a small checkout's time. Anything else
 * is {@link #checkout} answering false, having written nothing, for the git binary to do it.
 * Stateless.
 */
final class TreeCheckout {
    /** Trees with more files than this are checked out by the git binary, which is faster there. */
    static final int MAX_ENTRIES = ChangeCollector.IN_PROCESS_MAX_ENTRIES;

    private TreeCheckout() {}

    /**
     * Checks out {@code commit} into the clone at {@code dir} (its {@code .git} written, its work
     * tree empty) and writes the index, as {@code git read-tree --reset -u} does.
     *
     * @return false, having written nothing, when the tree or the configuration needs the git binary
     * @throws IOException when the checkout failed part way (the caller removes {@code dir})
     */
    static boolean checkout(Path dir, String commit) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(dir.resolve(Constants.DOT_GIT).toFile())
                .setWorkTree(dir.toFile()).setMustExist(true).build()) {
            if (transforms(r.getConfig())) {
                return false;
            }
            RevTree tree;
            try (RevWalk walk = new RevWalk(r)) {
                tree = walk.parseCommit(ObjectId.fromString(commit)).getTree();
            }
            if (!plain(r, tree)) {
                return false;
            }
            DirCache index = r.lockDirCache();
            try {
                DirCacheCheckout co = new DirCacheCheckout(r, index, tree);
                co.setFailOnConflict(true);
                co.checkout();
            } finally {
                index.unlock();
            }
            return true;
        }
    }

    /** Whether the configuration makes git change files on their way into the work tree. */
    private static boolean transforms(StoredConfig c) {
        return c.getString(ConfigConstants.CONFIG_CORE_SECTION, null, ConfigConstants.CONFIG_KEY_AUTOCRLF) != null
                || c.getString(ConfigConstants.CONFIG_CORE_SECTION, null, ConfigConstants.CONFIG_KEY_EOL) != null
                || c.getString(ConfigConstants.CONFIG_CORE_SECTION, null, ConfigConstants.CONFIG_KEY_ATTRIBUTESFILE) != null
                || !c.getBoolean(ConfigConstants.CONFIG_CORE_SECTION, ConfigConstants.CONFIG_KEY_SYMLINKS, true)
                || !c.getBoolean(ConfigConstants.CONFIG_CORE_SECTION, ConfigConstants.CONFIG_KEY_FILEMODE, true)
                || !c.getSubsections("filter").isEmpty();
    }

    /** Whether the tree holds at most {@link #MAX_ENTRIES} files and no attributes file or submodule. */
    private static boolean plain(Repository r, RevTree tree) throws IOException {
        int n = 0;
        try (TreeWalk walk = new TreeWalk(r)) {
            walk.addTree(tree);
            walk.setRecursive(true);
            while (walk.next()) {
                if (++n > MAX_ENTRIES || walk.getFileMode(0) == FileMode.GITLINK
                        || walk.getNameString().equals(Constants.DOT_GIT_ATTRIBUTES)) {
                    return false;
                }
            }
        }
        return true;
    }
}
