package dev.harness4j.core.pipeline;

import java.util.Optional;

/**
 * Makes a {@link RunStage} for a runner being built, found through {@link java.util.ServiceLoader}
 * (register the class in {@code META-INF/services/dev.harness4j.core.pipeline.RunStageFactory}),
 * so that a jar on the class path adds a concern to every run without code: how harness-meter
 * adds metering. A runner built with {@code discoverStages(false)} asks no factory.
 *
 * <p>Implementations need a public no-argument constructor.
 */
public interface RunStageFactory {
    /**
     * The stage for one runner, or empty when it does not apply (its feature turned off).
     *
     * @param setup what the runner being built offers its stages
     * @return the stage, or empty
     */
    Optional<RunStage> create(StageSetup setup);
}
