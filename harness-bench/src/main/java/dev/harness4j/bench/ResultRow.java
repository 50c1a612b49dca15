package dev.harness4j.bench;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * One result of a bench, as read from its {@code meta.json}. Unmeasured figures are {@code null},
 * never 0.
 *
 * @param dir the run's result directory below {@code results/}, {@code <task>/<harness>__<provider>__<model>/<runId>}
 * @param harness the harness id
 * @param provider the provider, or {@code null}
 * @param model the requested model (else the resolved one), or {@code null}
 * @param task the task label, or {@code null}
 * @param outcome the outcome's wire name ({@code completed}, {@code no-op}, ...)
 * @param reason why, for anything but a plain success, or {@code null}
 * @param durationMs the run's wall time, or {@code null}
 * @param filesChanged files changed, or {@code null}
 * @param insertions lines added, or {@code null}
 * @param deletions lines removed, or {@code null}
 * @param tokensIn input tokens, or {@code null} when unmeasured
 * @param tokensOut output tokens, or {@code null} when unmeasured
 * @param tokenSource who measured the tokens ({@code adapter}, {@code gateway}), or {@code null}
 * @param costUsd the cost in US dollars, or {@code null} when unmeasured
 * @param costSource where the cost comes from, or {@code null}
 * @param servedVerdict {@code match}, {@code mismatch} or {@code unmeasured}, or {@code null}
 * @param branch the pushed branch's name, {@code not pushed: <error>}, or {@code null} when no
 *     branch was asked for
 * @param trial which repetition of its task, harness and model the run was (1 up)
 * @param verifyStatus the verification's status ({@code passed}, {@code failed}, {@code
 *     verifier-error}, {@code verifier-timeout}, {@code not-verified}), or {@code null} when the
 *     task has no verifier
 * @param reward the verifier's reward in [0, 1], or {@code null} when none was written
 * @param rewards the verifier's named metrics ({@code verify.rewards}), in its order; empty when
 *     it wrote none
 */
public record ResultRow(
        String dir,
        String harness,
        String provider,
        String model,
        String task,
        String outcome,
        String reason,
        Long durationMs,
        Long filesChanged,
        Long insertions,
        Long deletions,
        Long tokensIn,
        Long tokensOut,
        String tokenSource,
        BigDecimal costUsd,
        String costSource,
        String servedVerdict,
        String branch,
        int trial,
        String verifyStatus,
        Double reward,
        Map<String, Double> rewards) {

    public ResultRow {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(outcome, "outcome");
        rewards = rewards == null || rewards.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(rewards));
    }

    /** A row without named metrics (a verifier that wrote one reward, or none). */
    public ResultRow(String dir, String harness, String provider, String model, String task, String outcome,
            String reason, Long durationMs, Long filesChanged, Long insertions, Long deletions, Long tokensIn,
            Long tokensOut, String tokenSource, BigDecimal costUsd, String costSource, String servedVerdict,
            String branch, int trial, String verifyStatus, Double reward) {
        this(dir, harness, provider, model, task, outcome, reason, durationMs, filesChanged, insertions, deletions,
                tokensIn, tokensOut, tokenSource, costUsd, costSource, servedVerdict, branch, trial, verifyStatus, reward,
                Map.of());
    }

    /**
     * Whether this run counts as a pass: its verification passed, or, for a task without a
     * verifier, the run completed.
     */
    public boolean passed() {
        return verifyStatus != null ? verifyStatus.equals("passed") : outcome.equals("completed");
    }

    /** {@code harness / model}, the label of this row in tables and charts. */
    public String label() {
        return harness + " / " + (model == null ? "(default)" : model);
    }

    /** Whether this is a reference harness's run ({@code nop}, {@code oracle}): labelled so, never ranked. */
    public boolean reference() {
        return dev.harness4j.bench.reference.ReferenceHarnesses.isReference(harness);
    }
}
