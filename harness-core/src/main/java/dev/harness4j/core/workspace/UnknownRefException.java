package dev.harness4j.core.workspace;

import java.nio.file.Path;

/** The ref a run asked for does not name a commit in the baseline repository. */
public class UnknownRefException extends WorkspaceException {
    private static final long serialVersionUID = 1L;

    private final String ref;

    public UnknownRefException(Path repo, String ref) {
        super("ref '" + ref + "' does not name a commit in " + repo
                + "; pass a branch, tag or commit id that exists there (git -C " + repo + " rev-parse " + ref + ")");
        this.ref = ref;
    }

    public String ref() {
        return ref;
    }
}
