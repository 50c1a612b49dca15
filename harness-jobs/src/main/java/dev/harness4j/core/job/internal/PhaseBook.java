package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.PhaseState;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One phase's part of a {@link JobBook}; mutated only through the book, under its lock. */
public final class PhaseBook {
    final String id;
    PhaseState state = PhaseState.PENDING;
    final String harness;
    String provider;
    String model;
    int attempts;
    /** How many of the phase's fallbacks it has switched to. */
    int fallbacksUsed;
    final List<RunEntry> runs = new ArrayList<>();
    String commit;
    String notes;
    /** The phase report of the run that completed it: its fields as written in the checkpoint, or null. */
    Report report;
    String reason;

    PhaseBook(String id, String harness, String provider, String model) {
        this.id = id;
        this.harness = harness;
        this.provider = provider;
        this.model = model;
    }

    public String id() {
        return id;
    }

    public PhaseState state() {
        return state;
    }

    public String provider() {
        return provider;
    }

    public String model() {
        return model;
    }

    public int attempts() {
        return attempts;
    }

    public String notes() {
        return notes;
    }

    public String commit() {
        return commit;
    }

    /** The run going on or last run, or null. */
    public RunEntry lastRun() {
        return runs.isEmpty() ? null : runs.get(runs.size() - 1);
    }

    /**
     * A phase report as kept in the checkpoint and the summary.
     *
     * @param completed whether the agent's work is done
     * @param committed whether it was committed (from git)
     * @param commitMessage the commit message, or null
     * @param summary what was done, or null
     * @param nextPhaseNotes notes for the next phases, or null
     * @param blockers what stood in the way
     * @param source self-report, summarized or git-derived
     */
    public record Report(boolean completed, boolean committed, String commitMessage, String summary,
            String nextPhaseNotes, List<String> blockers, String source) {
        public Report {
            blockers = List.copyOf(blockers);
        }
    }

    /**
     * One run of the phase.
     *
     * @param runId the run's id
     * @param provider its provider
     * @param model its model, or null
     * @param startedAt when it started
     * @param outcome how it ended ({@code Outcome.wireName()}), or null while running
     * @param reason why, or null
     * @param resultDir its result directory, or null
     * @param inputTokens measured input tokens, or null
     * @param outputTokens measured output tokens, or null
     * @param costUsd its cost, or null when unmeasured
     * @param durationMillis how long it took, or null
     * @param retryAt when a rate limit resets, or null
     */
    public record RunEntry(String runId, String provider, String model, Instant startedAt, String outcome,
            String reason, Path resultDir, Long inputTokens, Long outputTokens, BigDecimal costUsd,
            Long durationMillis, Instant retryAt) {
        static RunEntry started(String runId, String provider, String model, Instant at) {
            return new RunEntry(runId, provider, model, at, null, null, null, null, null, null, null, null);
        }
    }
}
