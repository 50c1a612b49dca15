package dev.harness4j.api;

import java.nio.file.Path;
import java.util.List;

/**
 * A source of harnesses made from data rather than one class each, found with {@link
 * java.util.ServiceLoader} beside the {@link Harness} adapters: e.g. harness-acp's, which makes an
 * {@code acp:<id>} harness of each row of the user's table of ACP agents ({@code
 * <stateDir>/config/acp-agents.json}). A runner asks each source once, when it builds its default
 * registry. Register an implementation (public, with a public no-argument constructor) in {@code
 * META-INF/services/dev.harness4j.api.HarnessSource}.
 *
 * <p>A source that throws (a malformed table) adds nothing; its message is kept among the registry's
 * load failures and repeated by the error for an unknown harness id, so a user who asks for one of
 * its harnesses reads what to fix. A harness whose id another adapter has already is left out the
 * same way.
 */
public interface HarnessSource {

    /**
     * The harnesses this source adds for a runner on this state dir.
     *
     * @param stateDir the runner's state dir (its {@code config/} holds user tables)
     * @return the harnesses, in the order they should be listed; none when there is nothing to add
     * @throws HarnessException when the data is malformed: the message names the file and field
     */
    List<Harness> harnesses(Path stateDir);
}
