package dev.harness4j.core.job;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A job as its last checkpoint has it: {@link JobRunner#status(String)}, and what {@link
 * JobRunner#run} and {@link JobRunner#resume} return when they stop.
 *
 * @param jobId the job's id
 * @param state where it is
 * @param reason why it failed, paused or was cancelled, or {@code null}
 * @param resumeAt for {@link JobState#PAUSED_QUOTA}: when it goes on by itself, else {@code null}
 * @param dir the job's directory ({@code <stateDir>/jobs/<id>})
 * @param branch the job's branch in its repository ({@code dir/repo})
 * @param baseCommit the baseline commit it started from
 * @param head the commit the completed phases left
 * @param phases the phases in run order
 * @param createdAt when the job was created
 * @param updatedAt when the checkpoint was last written
 */
public record JobStatus(String jobId, JobState state, String reason, Instant resumeAt, Path dir, String branch,
        String baseCommit, String head, List<PhaseStatus> phases, Instant createdAt, Instant updatedAt) {

    /** Checks the required parts. */
    public JobStatus {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(state, "state");
        phases = List.copyOf(phases);
    }

    /** The phase with this id. */
    public PhaseStatus phase(String phaseId) {
        return phases.stream().filter(p -> p.id().equals(phaseId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("job " + jobId + " has no phase " + phaseId));
    }

    /** The job's git repository, its persistent workspace. */
    public Path repository() {
        return dir.resolve("repo");
    }
}
