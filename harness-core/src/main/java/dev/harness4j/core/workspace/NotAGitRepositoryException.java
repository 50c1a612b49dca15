package dev.harness4j.core.workspace;

import java.nio.file.Path;

/** The baseline path of a run is not a git repository with at least one commit. */
public class NotAGitRepositoryException extends WorkspaceException {
    private static final long serialVersionUID = 1L;

    private final transient Path path;

    public NotAGitRepositoryException(Path path, String detail) {
        super("baseline " + path + " is not a usable git repository: " + detail
                + "; pass the root of a git checkout with at least one commit (git init && git commit)");
        this.path = path;
    }

    public Path path() {
        return path;
    }
}
