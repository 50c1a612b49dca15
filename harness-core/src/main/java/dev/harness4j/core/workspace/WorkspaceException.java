package dev.harness4j.core.workspace;

import dev.harness4j.api.HarnessException;

/** A workspace could not be isolated, inspected or cleaned up. */
public class WorkspaceException extends HarnessException {
    private static final long serialVersionUID = 1L;

    public WorkspaceException(String message) {
        super(message);
    }

    public WorkspaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
