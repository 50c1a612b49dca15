package dev.harness4j.api;

/**
 * The lazy trajectory reader, now {@link dev.harness4j.api.support.StepReader}: an adapter's reader
 * that extends this class keeps working for one release.
 *
 * @deprecated extend {@link dev.harness4j.api.support.StepReader}; this class goes in the release after 0.1.0
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public abstract class StepReader extends dev.harness4j.api.support.StepReader {
    /** For subclasses. */
    protected StepReader() {}
}
