/**
 * The harness4j contracts, small enough to read in ten minutes.
 *
 * <p>An adapter for a coding-agent CLI implements {@link dev.harness4j.api.Harness}: two pure
 * translations, {@link dev.harness4j.api.Harness#prepare(HarnessContext)} (what to start) and
 * {@link dev.harness4j.api.Harness#interpret(Execution)} (what happened). It owns no process,
 * thread, timer or file: harness-core starts, guards and captures everything. An adapter jar
 * registers itself in {@code META-INF/services/dev.harness4j.api.Harness}.
 *
 * <p>A {@link dev.harness4j.api.ProviderResolver} turns a provider name and a requested model
 * into a {@link dev.harness4j.api.ResolvedProvider} (endpoint, API styles, secret, model).
 *
 * <p>JSON lines: this module stays JDK-only and reads no JSON. An adapter whose CLI prints JSON
 * brings its own parser (the repository's adapters use Jackson) and reads the output line by line
 * with {@link dev.harness4j.api.Execution#forEachStdoutLine}; a line that does not parse is skipped,
 * never fatal (the testkit's {@code HarnessContract} feeds {@code interpret} garbage, truncated JSON
 * and a 10 MB line to check this).
 *
 * <p>Values are immutable records. Numbers that were not measured (tokens, cost) are absent
 * ({@code null} or {@link java.util.Optional#empty()}), never zero.
 */
package dev.harness4j.api;
