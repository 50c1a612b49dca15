package dev.harness4j.core.internal.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Isolation;
import dev.harness4j.core.internal.util.Json;
import dev.harness4j.core.internal.util.PrivateFiles;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.KeptWorkspace;
import dev.harness4j.core.workspace.WorkspaceException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workspaces kept for follow-up prompts: {@link #keep} commits what a finished run left
 * uncommitted in its checkout (nothing when it ended clean: the kept commit is its HEAD) and
 * writes {@code runs/<dir>/kept.json}; {@link #adopt} hands the directory to the follow-up run,
 * claiming it by renaming {@code kept.json} to {@code kept.json.claimed-<newRunId>} (one
 * follow-up per kept run, even across processes); {@link #sweepExpired} removes what expired.
 * The directory keeps its path for the whole chain of runs: agents record their sessions by
 * working directory (Claude Code does), so a moved checkout would lose its session.
 */
public final class KeptWorkspaces {
    private static final Logger log = LoggerFactory.getLogger(KeptWorkspaces.class);
    static final String FILE = "kept.json";
    private static final String CLAIMED = FILE + ".claimed-";
    /** The name prefix of a kept dir being swept, under {@code runs/}. */
    private static final String SWEEPING = ".sweeping-";
    /** {@code PhaseReports.REPORT_FILE}, the agent's phase report (not imported: this package sits below core's). */
    private static final String REPORT_FILE = ".harness4j/report.json";
    /** How long a claimed workspace whose follow-up never ended (a crash) is left after it expired. */
    private static final Duration CLAIM_GRACE = Duration.ofDays(1);

    private final Workspaces workspaces;
    private final ObjectMapper json = Json.mapper();

    public KeptWorkspaces(Workspaces workspaces) {
        this.workspaces = Objects.requireNonNull(workspaces, "workspaces");
    }

    /**
     * Commits everything in the run's checkout (hooks off, a fixed identity) and writes its
     * {@code kept.json}; the workspace must then not be closed.
     *
     * @throws WorkspaceException when git cannot commit or the file cannot be written
     */
    public KeptWorkspace keep(Workspace ws, String sessionId, String harness, String provider, String model,
            Baseline origin, Duration ttl) {
        GitCli git = workspaces.git();
        String what = "keeping the workspace of run " + ws.runId() + " for a follow-up";
        Path report = ws.dir().resolve(REPORT_FILE); // read already: it is not the follow-up's report
        if (Files.isRegularFile(report, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                && git.run(ws.dir(), List.of("ls-files", "--error-unmatch", "--", REPORT_FILE)).exitCode() != 0) {
            try {
                Files.delete(report); // untracked: the agent wrote it for this run
            } catch (IOException e) {
                throw new WorkspaceException("could not remove " + report + " before keeping the workspace: " + e, e);
            }
        }
        git.run(ws.dir(), List.of("add", "-A")).orThrow(what);
        if (!git.run(ws.dir(), List.of("diff", "--cached", "--quiet")).ok()) { // a clean end keeps its HEAD
            git.run(ws.dir(), List.of("-c", "user.name=harness4j", "-c", "user.email=harness4j@localhost",
                    "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "commit", "--quiet", "--no-verify",
                    "-m", "harness4j: the state at the end of run " + ws.runId())).orThrow(what);
        }
        String commit = new String(git.run(ws.dir(), List.of("rev-parse", "HEAD")).orThrow(what).stdout(),
                java.nio.charset.StandardCharsets.UTF_8).strip();
        KeptWorkspace kept = new KeptWorkspace(ws.runId(), sessionId, harness, provider, model, origin.repo(),
                origin.ref(), commit, Instant.now().plus(ttl), ws.runDir());
        write(kept);
        try (Stream<Path> s = Files.list(ws.runDir())) { // a follow-up's claim on the previous run's end
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith(CLAIMED)).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            log.debug("could not remove the old claims in {}: {}", ws.runDir(), e.toString());
        }
        return kept;
    }

    /**
     * The kept workspace of a run, if there is one and no follow-up claimed it.
     *
     * @param runId the run whose end was kept
     */
    public Optional<KeptWorkspace> find(String runId) {
        Workspaces.requireValidRunId(runId);
        Path runs = workspaces.stateDir().resolve("runs");
        Path direct = runs.resolve(runId).resolve(FILE); // the first run of a chain keeps its own dir
        Optional<KeptWorkspace> d = read(direct).filter(k -> k.runId().equals(runId));
        if (d.isPresent() || !Files.isDirectory(runs)) {
            return d;
        }
        try (Stream<Path> dirs = Files.list(runs)) { // a later run of a chain lives in the first run's dir
            return dirs.map(p -> p.resolve(FILE)).map(this::read).flatMap(Optional::stream)
                    .filter(k -> k.runId().equals(runId)).findFirst();
        } catch (IOException e) {
            throw new WorkspaceException("could not list " + runs + " for the kept workspace of run " + runId, e);
        }
    }

    /**
     * Claims a kept workspace for a follow-up run and returns it as that run's workspace, its
     * baseline the kept commit and its io dir emptied.
     *
     * @throws WorkspaceException when another follow-up claimed it first, or it is gone
     */
    public Workspace adopt(KeptWorkspace kept, String newRunId) {
        Workspaces.requireValidRunId(newRunId);
        Path file = kept.runDir().resolve(FILE);
        Path claim = kept.runDir().resolve(CLAIMED + newRunId);
        try {
            Files.move(file, claim, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            throw new WorkspaceException("the kept workspace of run " + kept.runId()
                    + " was already continued by another follow-up run, or swept; follow up on the latest run", e);
        } catch (IOException e) {
            throw new WorkspaceException("could not claim the kept workspace of run " + kept.runId() + ": " + e, e);
        }
        Optional<KeptWorkspace> claimed = read(claim); // what was renamed: another follow-up may have kept the dir anew
        if (claimed.isEmpty() || !claimed.get().runId().equals(kept.runId())
                || !claimed.get().commit().equals(kept.commit())) {
            undoClaim(claim, file, null);
            throw new WorkspaceException("the kept workspace of run " + kept.runId() + " was continued by another "
                    + "follow-up run meanwhile" + claimed.map(k -> " (now kept for run " + k.runId() + ")").orElse("")
                    + "; follow up on the latest run");
        }
        // the original repository stays the baseline (its remote is where a branch push goes); the diff
        // starts at the kept commit
        Workspace ws = new Workspace(workspaces, newRunId, kept.runDir(),
                new Baseline(kept.baseline(), kept.ref(), kept.commit(), null, false), Isolation.CLONE);
        try {
            if (Files.exists(ws.ioDir())) {
                SafeDelete.deleteBelow(workspaces.stateDir(), ws.ioDir()); // the previous run's capture files
            }
            workspaces.ensureWritableDir(ws.ioDir());
        } catch (RuntimeException e) {
            undoClaim(claim, file, e); // still kept for another try
            throw new WorkspaceException("could not prepare the kept workspace of run " + kept.runId() + ": " + e, e);
        }
        return ws; // the claim stays until the follow-up keeps the dir again or removes it
    }

    /**
     * Gives a claimed workspace back, as it was kept, for a follow-up that ended before its agent
     * started (refused by a stage, bailed while preparing): the next follow-up may take it.
     *
     * @return whether the claim was given back
     */
    public boolean release(KeptWorkspace kept, String newRunId) {
        Path claim = kept.runDir().resolve(CLAIMED + newRunId);
        Path file = kept.runDir().resolve(FILE);
        if (!Files.exists(claim) || Files.exists(file)) {
            return false;
        }
        return undoClaim(claim, file, null);
    }

    private static boolean undoClaim(Path claim, Path file, RuntimeException failure) {
        try {
            Files.move(claim, file, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException undo) {
            if (failure != null) {
                failure.addSuppressed(undo);
            }
            log.warn("could not give back the claim {}: {}", claim, undo.toString());
            return false;
        }
    }

    /**
     * Removes the kept workspaces whose time has passed (and claimed ones a crashed follow-up
     * left, a day after they expired).
     *
     * @return the directories removed
     */
    public List<Path> sweepExpired(Instant now) {
        Path runs = workspaces.stateDir().resolve("runs");
        List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(runs)) {
            return removed;
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.list(runs)) {
            dirs = s.filter(Files::isDirectory).toList();
        } catch (IOException e) {
            log.warn("could not list {} for expired kept workspaces: {}", runs, e.toString());
            return removed;
        }
        for (Path dir : dirs) {
            String name = dir.getFileName().toString();
            boolean leftover = name.startsWith(SWEEPING) || Files.exists(dir.resolve(FILE + ".sweeping"));
            Optional<Instant> until = leftover ? Optional.of(Instant.MIN) : read(dir.resolve(FILE))
                    .map(KeptWorkspace::keptUntil).or(() -> claimedUntil(dir).map(t -> t.plus(CLAIM_GRACE)));
            if (until.isEmpty() || !now.isAfter(until.get())) {
                continue;
            }
            try {
                Path doomed = dir;
                if (!leftover) {
                    Path marker = dir.resolve(FILE + ".sweeping");
                    Path from = Files.exists(dir.resolve(FILE)) ? dir.resolve(FILE) : claimFile(dir).orElse(null);
                    if (from == null) {
                        continue;
                    }
                    Files.move(from, marker, StandardCopyOption.ATOMIC_MOVE); // a follow-up's claim now fails
                    doomed = runs.resolve(SWEEPING + name);
                    Files.move(dir, doomed, StandardCopyOption.ATOMIC_MOVE); // never found again, even half deleted
                }
                SafeDelete.deleteBelow(runs, doomed);
                removed.add(dir);
                log.debug("removed the kept workspace {} (expired {})", dir, until.get());
            } catch (NoSuchFileException e) {
                log.debug("the kept workspace {} was claimed or removed meanwhile", dir);
            } catch (IOException | RuntimeException e) {
                log.warn("could not remove the expired kept workspace {}: {}", dir, e.toString());
            }
        }
        return removed;
    }

    private Optional<Instant> claimedUntil(Path dir) {
        return claimFile(dir).flatMap(this::read).map(KeptWorkspace::keptUntil);
    }

    private static Optional<Path> claimFile(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(CLAIMED)).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private void write(KeptWorkspace k) {
        ObjectNode n = json.createObjectNode();
        n.put("run_id", k.runId());
        n.put("session_id", k.sessionId());
        n.put("harness", k.harness());
        n.put("provider", k.provider());
        n.put("model", k.model());
        n.put("baseline", k.baseline().toString());
        n.put("ref", k.ref());
        n.put("commit", k.commit());
        n.put("kept_until", k.keptUntil().toString());
        Path file = k.runDir().resolve(FILE);
        Path tmp = k.runDir().resolve(FILE + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            try (OutputStream out = PrivateFiles.newOutputStream(tmp)) {
                json.writerWithDefaultPrettyPrinter().writeValue(out, n);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new WorkspaceException("could not write " + file + ": " + e, e);
        }
    }

    private Optional<KeptWorkspace> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode n = json.readTree(file.toFile());
            return Optional.of(new KeptWorkspace(n.path("run_id").asText(), n.path("session_id").asText(),
                    n.path("harness").asText(), n.path("provider").asText(), n.path("model").asText(),
                    Path.of(n.path("baseline").asText()), n.path("ref").asText(), n.path("commit").asText(),
                    Instant.parse(n.path("kept_until").asText()), file.getParent()));
        } catch (IOException | RuntimeException e) {
            log.warn("ignoring the unreadable kept-workspace file {}: {}", file, e.toString());
            return Optional.empty();
        }
    }
}
