package dev.harness4j.core.pipeline;

import java.nio.file.Path;
import java.util.Optional;

/** What a runner being built offers a {@link RunStageFactory}: its state dir and the settings it was given. */
public interface StageSetup {
    /** Returns the runner's state dir. */
    Path stateDir();

    /**
     * A setting given to the runner's builder ({@code HarnessRunner.builder().setting(key, value)}).
     *
     * @param key the setting's key, declared by the stage that reads it
     * @param <T> the value's type
     * @return the value, or empty when it was not set
     */
    <T> Optional<T> setting(Key<T> key);

    /**
     * Whether the chain has a stage in a slot (a built-in or one added so far).
     *
     * @param slot the slot
     * @return whether a stage takes it
     */
    boolean has(Slot slot);
}
