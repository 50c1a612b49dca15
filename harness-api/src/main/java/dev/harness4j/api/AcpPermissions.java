package dev.harness4j.api;

import java.util.Locale;

/**
 * What harness-core answers when an ACP agent asks for permission ({@code session/request_permission})
 * during a run described by an {@link AcpSession}.
 *
 * <p>A run chooses with the run option {@value #OPTION} ({@code allow-in-workspace}, the default,
 * {@code allow-all} or {@code reject-all}); {@link #fromOption} reads it.
 */
public enum AcpPermissions {
    /**
     * Allow a tool call whose locations are all inside the run's workspace (or that names none, as
     * a shell command does); reject one that names a path outside it. The default.
     */
    ALLOW_IN_WORKSPACE,
    /** Allow every request. */
    ALLOW_ALL,
    /** Reject every request (the agent may go on without the tool). */
    REJECT_ALL;

    /** The run option that chooses the policy: {@value}. */
    public static final String OPTION = "permissions";

    /**
     * The policy a run's options choose.
     *
     * @param value the option's value ({@code allow-in-workspace}, {@code allow-all}, {@code
     *     reject-all}), or {@code null} for the default
     * @return the policy
     * @throws HarnessException when the value names no policy
     */
    public static AcpPermissions fromOption(String value) {
        if (value == null || value.isBlank()) {
            return ALLOW_IN_WORKSPACE;
        }
        for (AcpPermissions p : values()) {
            if (p.optionValue().equals(value.strip().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new HarnessException("option " + OPTION + "=" + value + " names no permission policy; give one of "
                + "allow-in-workspace (the default), allow-all, reject-all");
    }

    /**
     * How the policy is written in the run option.
     *
     * @return e.g. {@code allow-in-workspace}
     */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
