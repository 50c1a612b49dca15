/**
 * The harness4j contracts: the {@link dev.harness4j.api.Harness} and
 * {@link dev.harness4j.api.ProviderResolver} SPIs and the values that flow through one run.
 * JDK only, no dependencies.
 */
module dev.harness4j.api {
    exports dev.harness4j.api;
    exports dev.harness4j.api.support;
}
