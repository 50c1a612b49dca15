package dev.harness4j.core.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One phase as its job's checkpoint has it.
 *
 * @param id the phase's id
 * @param state where it is
 * @param harness the harness it runs
 * @param provider the provider it runs on now (a fallback after a switch)
 * @param model the model it runs on now, or {@code null} for the provider's default
 * @param attempts failed runs so far (rate-limited runs do not count)
 * @param runIds every run of the phase, oldest first
 * @param commit the job branch's commit after the phase completed, or {@code null}
 * @param nextPhaseNotes the notes its phase report left for the phases after it, or {@code null}
 * @param outcome how its last run ended ({@code completed}, {@code rate-limited}, ...), or {@code null}
 * @param reason why it failed or was reset, or {@code null}
 * @param resultDir its last run's result directory, or {@code null}
 */
public record PhaseStatus(String id, PhaseState state, String harness, String provider, String model, int attempts,
        List<String> runIds, String commit, String nextPhaseNotes, String outcome, String reason, Path resultDir) {

    /** Checks the required parts. */
    public PhaseStatus {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        runIds = List.copyOf(runIds);
    }
}
