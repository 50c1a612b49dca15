/**
 * The opencode adapter (id {@code opencode}, OPAQUE): {@link dev.harness4j.opencode.OpencodeHarness}
 * runs {@code opencode run --format json} in per-run config and state dirs and reads outcome,
 * tokens and summary from its event stream.
 */
package dev.harness4j.opencode;
