package dev.harness4j.core;

import dev.harness4j.core.process.ProcessSupervisor;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The runs of one runner that are going on, with their bail flags: a bail stops a running
 * process, marks a run still preparing, and is refused once the harness process has ended.
 * Thread-safe.
 */
final class RunsInFlight {
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private final SecureRandom random = new SecureRandom();

    private final ProcessSupervisor supervisor;
    private final ConcurrentMap<String, AtomicBoolean> preparing = new ConcurrentHashMap<>();
    /** Runs whose harness process has ended: a bail can no longer change their outcome. */
    private final Set<String> processEnded = ConcurrentHashMap.newKeySet();

    RunsInFlight(ProcessSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    /** A fresh run id: the UTC time and 8 random hex digits ({@code 20261202-064825-1a2b3c4d}). */
    String newRunId() {
        byte[] b = new byte[4];
        random.nextBytes(b);
        return ZonedDateTime.now(ZoneOffset.UTC).format(ID_TIME) + "-" + HexFormat.of().formatHex(b);
    }

    /** Registers a run; its bail flag. */
    AtomicBoolean start(String runId) {
        AtomicBoolean bailed = new AtomicBoolean();
        if (preparing.putIfAbsent(runId, bailed) != null) {
            throw new IllegalArgumentException("run " + runId + " is already running; run ids must be unique");
        }
        return bailed;
    }

    /** The run's harness process has ended: later bails are refused. */
    void processEnded(String runId) {
        processEnded.add(runId);
    }

    /** The run is over. */
    void end(String runId, AtomicBoolean bailed) {
        preparing.remove(runId, bailed);
        processEnded.remove(runId);
    }

    /** See {@link HarnessRunner#bail(String)}. */
    boolean bail(String runId) {
        if (supervisor.bail(runId)) {
            return true;
        }
        AtomicBoolean flag = preparing.get(runId);
        if (flag == null || processEnded.contains(runId)) {
            return false;
        }
        flag.set(true);
        supervisor.bail(runId); // the process may have started in between
        return true;
    }

    /** Marks every run bailed (the runner closes). */
    void bailAll() {
        preparing.values().forEach(f -> f.set(true));
    }
}
