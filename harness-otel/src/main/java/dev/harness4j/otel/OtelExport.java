package dev.harness4j.otel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.RunObserver;
import dev.harness4j.core.RunRecord;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports each finished run as OpenTelemetry spans, on {@code opentelemetry-api} only (the user
 * brings the SDK and exporter): one {@code invoke_agent} span per run, a {@code chat} span per
 * model call (each agent step of the run's {@code trajectory.json}) and an {@code execute_tool}
 * span per tool call, with the GenAI semantic-convention attributes ({@link GenAi}) and
 * harness4j's own under {@code harness4j.} (cost, served-model verdict, outcome).
 *
 * <pre>{@code
 * HarnessRunner runner = HarnessRunner.builder()
 *         .observer(OtelExport.of(GlobalOpenTelemetry.get()))
 *         .build();
 * }</pre>
 *
 * <p>Timing: the run span covers the run; a chat span starts at its model call and ends where
 * the next step starts (the call and the tools it asked for), a tool span covers the second half
 * of its turn: the trajectory has no finer timing. Without an SDK (a no-op {@code OpenTelemetry})
 * the run span does not record and the trajectory is never read: it costs nothing. Spans are
 * emitted after the run, with the run's own timestamps. Thread-safe.
 */
public final class OtelExport implements RunObserver {
    /** The instrumentation scope name of the spans. */
    public static final String SCOPE = "dev.harness4j";

    private static final Logger log = LoggerFactory.getLogger(OtelExport.class);

    private final Tracer tracer;

    private OtelExport(Tracer tracer) {
        this.tracer = tracer;
    }

    /** An exporter on the given OpenTelemetry (for example {@code GlobalOpenTelemetry.get()}). */
    public static OtelExport of(OpenTelemetry openTelemetry) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        return new OtelExport(openTelemetry.getTracer(SCOPE));
    }

    @Override
    public void runFinished(RunRecord record) {
        Instant start = record.startedAt();
        Instant end = record.finishedAt() != null ? record.finishedAt() : Instant.now();
        Span run = tracer.spanBuilder(GenAi.INVOKE_AGENT + " " + record.spec().harness()).setSpanKind(SpanKind.INTERNAL)
                .setNoParent().setStartTimestamp(start).startSpan();
        try {
            if (!run.isRecording()) {
                return; // no SDK: nothing is read, nothing is built
            }
            runAttributes(run, record);
            Path file = record.resultDir() == null ? null : record.resultDir().resolve("trajectory.json");
            if (file != null && Files.isRegularFile(file)) {
                try {
                    new StepSpans(tracer, Context.root().with(run), record, end).emit(file);
                } catch (IOException | RuntimeException e) {
                    log.info("run {}: could not read {} for its spans: {}", record.runId(), file, e.toString());
                }
            }
        } finally {
            run.end(end);
        }
    }

    private static void runAttributes(Span run, RunRecord record) {
        run.setAttribute(GenAi.OPERATION_NAME, GenAi.INVOKE_AGENT);
        run.setAttribute(GenAi.AGENT_NAME, record.spec().harness());
        run.setAttribute(GenAi.PROVIDER_NAME, record.providerName());
        run.setAttribute(GenAi.REQUEST_MODEL, record.resolvedModel());
        run.setAttribute(GenAi.CONVERSATION_ID, record.runId());
        run.setAttribute(GenAi.H4J_RUN_ID, record.runId());
        HarnessResult r = record.result();
        if (r == null) {
            return;
        }
        run.setAttribute(GenAi.H4J_OUTCOME, r.outcome().wireName());
        run.setAttribute(GenAi.H4J_VERDICT, r.servedModel().verdict().name().toLowerCase(java.util.Locale.ROOT));
        if (!r.servedModel().answered().isEmpty()) {
            run.setAttribute(GenAi.RESPONSE_MODEL, r.servedModel().answered().get(0));
        }
        TokenUsage t = r.tokens();
        if (t.input() != null) {
            run.setAttribute(GenAi.USAGE_INPUT_TOKENS, t.input() + orZero(t.cacheRead()) + orZero(t.cacheWrite()));
        }
        if (t.output() != null) {
            run.setAttribute(GenAi.USAGE_OUTPUT_TOKENS, t.output());
        }
        if (t.cacheRead() != null) {
            run.setAttribute(GenAi.USAGE_CACHE_READ, t.cacheRead());
        }
        if (t.cacheWrite() != null) {
            run.setAttribute(GenAi.USAGE_CACHE_CREATION, t.cacheWrite());
        }
        if (r.cost() != null) {
            run.setAttribute(GenAi.H4J_COST_USD, r.cost().usd().doubleValue());
            run.setAttribute(GenAi.H4J_COST_SOURCE, r.cost().source().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (!r.outcome().isSuccess()) {
            run.setAttribute(GenAi.ERROR_TYPE, r.outcome().wireName());
            run.setStatus(StatusCode.ERROR, r.reason() == null ? r.outcome().wireName() : r.reason());
        }
    }

    static long orZero(Long v) {
        return v == null ? 0 : v;
    }

    /** A step's timestamp, or null. */
    static Instant timestamp(JsonNode step) {
        try {
            return step.has("timestamp") ? Instant.parse(step.get("timestamp").asText()) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
