package dev.harness4j.api;

/** A harness's CLI is not installed (not on {@code PATH}, nor at its configured path). */
public class HarnessNotInstalledException extends HarnessException {
    private static final long serialVersionUID = 1L;

    /** The id of the harness whose CLI is missing. */
    private final String harnessId;
    /** The executable that was looked for. */
    private final String binary;
    /** The command that installs the pinned version. */
    private final String installHint;

    /**
     * An exception whose message names the harness, what was looked for and the install command.
     *
     * @param harnessId the harness id
     * @param binary the executable that was looked for
     * @param installHint the exact command that installs the pinned version
     * @param detail where it was looked for and what was found
     */
    public HarnessNotInstalledException(String harnessId, String binary, String installHint, String detail) {
        super("harness '" + harnessId + "' is not installed: " + detail + "; install it with: " + installHint);
        this.harnessId = harnessId;
        this.binary = binary;
        this.installHint = installHint;
    }

    /**
     * The harness id.
     *
     * @return the harness id
     */
    public String harnessId() {
        return harnessId;
    }

    /**
     * The executable that was looked for.
     *
     * @return the executable's name or configured path
     */
    public String binary() {
        return binary;
    }

    /**
     * The exact command that installs the pinned version.
     *
     * @return the install command
     */
    public String installHint() {
        return installHint;
    }
}
