package com.example.provenance;

import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStageFactory;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.pipeline.StageSetup;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A third-party run stage: adds a {@code provenance} section to every run's {@code meta.json}
 * saying which machine and build ran it (the CI's build URL from {@code CI_BUILD_URL}, when
 * set). One class and one line in {@code META-INF/services/dev.harness4j.core.pipeline.RunStageFactory};
 * every runner built on a class path holding this jar picks it up.
 */
public final class ProvenanceStage implements RunStage, RunStageFactory {
    private final String host;
    private final String build;

    /** The factory {@link java.util.ServiceLoader} makes. */
    public ProvenanceStage() {
        this(hostName(), System.getenv("CI_BUILD_URL"));
    }

    ProvenanceStage(String host, String build) {
        this.host = host;
        this.build = build;
    }

    @Override
    public Optional<RunStage> create(StageSetup setup) {
        return Optional.of(this);
    }

    @Override
    public Slot slot() {
        return Slot.RECORD; // just inside the record: sees every run's outcome, failed ones too
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunOutcome out = chain.proceed();
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("host", host);
        section.put("harness", chain.run().harness().id());
        section.put("build", build); // null when not in CI: written as null, never invented
        out.section("provenance", section);
        return out;
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
