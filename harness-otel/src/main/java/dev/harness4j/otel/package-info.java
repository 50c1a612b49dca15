/**
 * Opt-in OpenTelemetry export of harness4j runs: {@link dev.harness4j.otel.OtelExport}, a
 * {@link dev.harness4j.core.RunObserver} emitting GenAI semantic-convention spans on
 * {@code opentelemetry-api} only.
 */
package dev.harness4j.otel;
