package dev.harness4j.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.queue.Owner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's record, in its local state dir, of the runs it is running: one file {@code
 * <stateDir>/pg-worker/claims/<runId>.json} (entry, worker name, owner process) from the claim
 * until the attempt's end is written. A worker killed with -9 leaves its files behind; a worker
 * starting on the same state dir finds them by their dead owner ({@link #dead()}) and sweeps
 * what those runs left. Files of a live owner (another worker sharing the state dir) are never
 * returned.
 */
public final class LocalClaims {
    private static final Logger log = LoggerFactory.getLogger(LocalClaims.class);
    private static final String SUFFIX = ".json";

    private final Path dir;
    private final String owner = Jsons.owner(Owner.current());

    /**
     * A run a dead worker had claimed.
     *
     * @param runId its run id
     * @param entryId its queue entry
     * @param worker the dead worker's name
     */
    public record Claim(String runId, String entryId, String worker) {}

    public LocalClaims(Path stateDir) {
        this.dir = Objects.requireNonNull(stateDir, "stateDir").resolve("pg-worker").resolve("claims");
    }

    /** Records a claim before its run starts (written whole: a temp file renamed into place). */
    public void add(String runId, String entryId, String worker) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("run_id", runId);
        n.put("entry_id", entryId);
        n.put("worker", worker);
        n.put("owner", owner);
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve("." + runId + "." + ProcessHandle.current().pid() + ".tmp");
            Files.writeString(tmp, n.toString(), StandardCharsets.UTF_8);
            Files.move(tmp, file(runId), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the claim of run " + runId + " in " + dir
                    + "; is the state dir writable?", e);
        }
    }

    /** Drops a claim once its attempt's end is written (or given up on). */
    public void remove(String runId) {
        try {
            Files.deleteIfExists(file(runId));
        } catch (IOException e) {
            log.warn("cannot remove the claim file of run {} in {}: {}", runId, dir, e.toString());
        }
    }

    /**
     * The claims whose owner process is dead on this host; temp files a dead process left are
     * deleted. Unreadable files are logged and skipped.
     */
    public List<Claim> dead() {
        List<Claim> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (var files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.startsWith(".") && name.endsWith(".tmp")) {
                    deleteTempOfDeadWriter(f, name);
                } else if (name.endsWith(SUFFIX)) {
                    read(f).ifPresent(out::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the claims in " + dir, e);
        }
        return out;
    }

    private java.util.Optional<Claim> read(Path f) {
        try {
            JsonNode n = Jsons.read(Files.readString(f, StandardCharsets.UTF_8));
            Owner o = Jsons.owner(n.path("owner").asText(null));
            if (o == null || !o.isDeadOnThisHost()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new Claim(n.path("run_id").asText(), n.path("entry_id").asText(null),
                    n.path("worker").asText(null)));
        } catch (IOException | RuntimeException e) {
            log.warn("skipping the unreadable claim file {}: {}", f, e.toString());
            return java.util.Optional.empty();
        }
    }

    private static void deleteTempOfDeadWriter(Path f, String name) throws IOException {
        String[] parts = name.split("\\.");
        try {
            long pid = Long.parseLong(parts[parts.length - 2]);
            if (ProcessHandle.of(pid).isEmpty()) {
                Files.deleteIfExists(f);
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            log.warn("skipping the unexpected file {}", f);
        }
    }

    private Path file(String runId) {
        return dir.resolve(runId + SUFFIX);
    }
}
