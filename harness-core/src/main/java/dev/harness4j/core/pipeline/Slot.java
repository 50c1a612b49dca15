package dev.harness4j.core.pipeline;

import java.util.Locale;

/**
 * Where a {@link RunStage} sits in a run's chain, outermost first: a stage wraps every stage of a
 * later slot. The built-in stages take one slot each; a user's stage declares the slot it belongs
 * to and is placed just inside the built-in stage of that slot (several of one slot in the order
 * they were added). {@link #HARNESS} is the terminal slot: only the runner's own stage takes it.
 *
 * <pre>
 * RECORD          run id, events, the result dir written whole at the end
 * WORKSPACE       the per-run checkout; the baseline never touched
 * AFTER_HARNESS   the caller's after-harness step (a bench's verifier)
 * BRANCH_PUSH     the result pushed to a branch, when asked
 * PHASE_REPORT    self-report file, summarizer, git-derived
 * SERVED_MODEL    the served-model policy
 * GATEWAY         a per-run gateway key, its spend settled
 * METER           the metering proxy: tokens, errors, retry-at, budgets
 * SANDBOX         bubblewrap confinement
 * LOGIN_PROBE     the CLI's login, cached; a policy may refuse
 * HARNESS         (terminal) prepare, the supervised process, git changes, interpret
 * </pre>
 */
public enum Slot {
    RECORD, WORKSPACE, AFTER_HARNESS, BRANCH_PUSH, PHASE_REPORT, SERVED_MODEL, GATEWAY, METER, SANDBOX, LOGIN_PROBE,
    HARNESS;

    /** The lower-case name with dashes, as timings and messages print it ({@code login-probe}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
