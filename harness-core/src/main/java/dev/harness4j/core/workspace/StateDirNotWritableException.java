package dev.harness4j.core.workspace;

import java.nio.file.Path;

/** The state directory (or a directory below it) cannot be created or written. */
public class StateDirNotWritableException extends WorkspaceException {
    private static final long serialVersionUID = 1L;

    private final transient Path stateDir;

    public StateDirNotWritableException(Path stateDir, Path attempted, Throwable cause) {
        super("state dir " + stateDir + " is not writable: could not create or write " + attempted
                + (cause != null ? " (" + cause + ")" : "")
                + "; choose a writable directory with HarnessRunner.builder().stateDir(..)", cause);
        this.stateDir = stateDir;
    }

    public Path stateDir() {
        return stateDir;
    }
}
