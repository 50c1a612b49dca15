package dev.harness4j.postgres;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The result files stored in the database with each result, and the size cap of each, in bytes
 * (as stored: the transcript is stored gzip-compressed as {@value #TRANSCRIPT_GZ} and its cap
 * counts compressed bytes). A file over its cap is stored truncated, ending with a marker that
 * says so and where the full file is on the worker's disk; that path is recorded too.
 *
 * @param caps cap in bytes by stored artifact name
 */
public record ArtifactCaps(Map<String, Long> caps) {
    /** The stored name of the compressed {@code transcript.log}. */
    public static final String TRANSCRIPT_GZ = "transcript.log.gz";

    /**
     * diff.patch 1 MiB, diffstat.txt 64 KiB, verify.log 256 KiB, trajectory.json 1 MiB,
     * transcript.log.gz 1 MiB.
     */
    public static final ArtifactCaps DEFAULT = new ArtifactCaps(Map.of(
            "diff.patch", 1L << 20, "diffstat.txt", 64L << 10, "verify.log", 256L << 10,
            "trajectory.json", 1L << 20, TRANSCRIPT_GZ, 1L << 20));

    public ArtifactCaps {
        Objects.requireNonNull(caps, "caps");
        for (Map.Entry<String, Long> e : caps.entrySet()) {
            if (e.getValue() == null || e.getValue() < 256) {
                throw new IllegalArgumentException("the cap of " + e.getKey() + " must be >= 256 bytes, was " + e.getValue());
            }
        }
        caps = Map.copyOf(caps);
    }

    /** These caps with {@code name}'s set to {@code bytes}. */
    public ArtifactCaps withCap(String name, long bytes) {
        Map<String, Long> m = new LinkedHashMap<>(caps);
        m.put(Objects.requireNonNull(name, "name"), bytes);
        return new ArtifactCaps(m);
    }

    /** The cap of a stored artifact name. */
    public long capOf(String name) {
        Long c = caps.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no cap for artifact " + name + "; known: " + caps.keySet());
        }
        return c;
    }
}
