package dev.harness4j.api;

/** A harness's CLI is not installed (not on {@code PATH}, nor at its configured path). */
public class HarnessNotInstalledException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final String harnessId;
    private final String binary;
    private final String installHint;

    public HarnessNotInstalledException(String harnessId, String binary, String installHint, String detail) {
        super("harness '" + harnessId + "' is not installed: " + detail + "; install it with: " + installHint);
        this.harnessId = harnessId;
        this.binary = binary;
        this.installHint = installHint;
    }

    public String harnessId() {
        return harnessId;
    }

    public String binary() {
        return binary;
    }

    /** The exact command that installs the pinned version. */
    public String installHint() {
        return installHint;
    }
}
