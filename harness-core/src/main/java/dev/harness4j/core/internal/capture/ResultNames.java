package dev.harness4j.core.internal.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import java.util.Set;

/** The rules for what a stage or an after-harness step may add to a result: section keys, file names, values. */
public final class ResultNames {
    /** The top-level keys of {@code meta.json} the record writes itself: no section may take them. */
    private static final Set<String> RESERVED = Set.of("schema_version", "run_id", "harness", "provider", "model",
            "resolved_model", "task", "trial", "baseline", "head_after", "outcome", "reason", "stage", "exit_code",
            "termination", "started_at", "finished_at", "duration_ms", "changes", "tokens", "cost", "served_model",
            "login", "branch", "summary", "phase_report", "retry_at", "notes");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultNames() {}

    /** Throws for a blank section key or one the record writes itself. */
    public static void requireSectionKey(String key) {
        if (key == null || key.isBlank() || RESERVED.contains(key)) {
            throw new IllegalArgumentException("'" + key + "' cannot be a meta.json section: the runner uses it");
        }
    }

    /** Throws when {@code value} is not JSON-able. */
    public static void requireJsonable(String key, Object value) {
        try {
            JSON.valueToTree(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the meta.json section '" + key + "' is not JSON-able: " + e.getMessage(), e);
        }
    }

    /** Throws for a name that cannot be an extra result file: not plain, or one of the record's own. */
    public static void requireFileName(String name) {
        if (name == null || name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith(".")
                || !name.equals(ResultStore.sanitise(name)) || ResultStore.isOwnFile(name)
                || name.equals(RunTrajectory.FILE) || name.equals(RunTrajectory.BODIES)) {
            throw new IllegalArgumentException("'" + name + "' cannot be a result file's name: give a plain file name"
                    + " (letters, digits, . _ -) other than the runner's own files");
        }
    }
}
