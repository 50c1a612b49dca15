package dev.harness4j.bench.reference;

import java.util.Set;

/**
 * The ids and conventions of the reference harnesses: which harness ids are references (their
 * results are labelled so and kept off leaderboards), the provider and model their runs are
 * labelled with, and the run option that carries the oracle's script.
 *
 * <pre>{@code
 * if (ReferenceHarnesses.isReference(row.harness())) { ... }   // a reference run, not an agent's
 * }</pre>
 */
public final class ReferenceHarnesses {
    /** The harness that exits 0 and changes nothing: {@value}. */
    public static final String NOP = "nop";
    /** The harness that runs the task's reference solution: {@value}. */
    public static final String ORACLE = "oracle";
    /** The provider name a reference run is labelled with (no provider is resolved): {@value}. */
    public static final String PROVIDER = "none";
    /** The model name a reference run is labelled with: {@value}. */
    public static final String MODEL = "none";
    /**
     * The run option holding the reference solution the oracle runs: a shell script's text, run
     * with {@code sh} in the workspace. A bench plan sets it from the task's {@code solution}.
     */
    public static final String SCRIPT_OPTION = "oracle.script";

    private static final Set<String> IDS = Set.of(NOP, ORACLE);

    private ReferenceHarnesses() {}

    /**
     * Whether a harness id is one of the reference harnesses.
     *
     * @param harnessId a harness id, or {@code null}
     * @return whether its runs are references
     */
    public static boolean isReference(String harnessId) {
        return harnessId != null && IDS.contains(harnessId);
    }

    /** The reference harness ids. */
    public static Set<String> ids() {
        return IDS;
    }
}
