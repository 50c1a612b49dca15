package dev.harness4j.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Cost;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.workspace.Baseline;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spans of a finished run, seen by the SDK's in-memory exporter. */
class OtelExportTest {
    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    @TempDir Path tmp;
    private InMemorySpanExporter exporter;
    private OpenTelemetrySdk sdk;

    @BeforeEach
    void setUp() {
        exporter = InMemorySpanExporter.create();
        sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    }

    @AfterEach
    void tearDown() {
        sdk.close();
    }

    /** A trajectory.json as core writes it: a user step, two tool-calling agent steps, a closing one. */
    private static final String TRAJECTORY = """
            {"schema_version":"ATIF-v1.7","session_id":"r1","agent":{"name":"claude-code","version":"2.1"},
             "steps":[
              {"step_id":1,"timestamp":"2026-12-01T10:00:00Z","source":"user","message":"Do it."},
              {"step_id":2,"timestamp":"2026-12-01T10:00:01Z","source":"agent","model_name":"claude-haiku-4-5-20251001",
               "message":"Let me look.","tool_calls":[{"tool_call_id":"tu_1","function_name":"Bash","arguments":{"command":"ls"}}],
               "observation":{"results":[{"source_call_id":"tu_1","content":"README.md"}]},
               "metrics":{"prompt_tokens":140,"completion_tokens":10,"cached_tokens":0,"cost_usd":0.001,
                          "extra":{"cache_creation_input_tokens":40}}},
              {"step_id":3,"timestamp":"2026-12-01T10:00:03Z","source":"agent","model_name":"claude-haiku-4-5-20251001",
               "message":"","tool_calls":[{"tool_call_id":"tu_2","function_name":"Write","arguments":{"file_path":"a"}}],
               "metrics":{"prompt_tokens":180,"completion_tokens":20,"cached_tokens":30}},
              {"step_id":4,"timestamp":"2026-12-01T10:00:05Z","source":"agent","model_name":"claude-haiku-4-5-20251001",
               "message":"Done.","metrics":{"prompt_tokens":260,"completion_tokens":5,"cached_tokens":60}}],
             "final_metrics":{"total_prompt_tokens":580,"total_completion_tokens":35,"total_steps":4},
             "extra":{"harness4j":{"trajectory_source":"wire-bodies"}}}
            """;

    private RunRecord record(Outcome outcome, Path resultDir) {
        HarnessResult result = HarnessResult.builder(outcome, "haiku")
                .tokens(new TokenUsage(450L, 35L, 90L, 40L, TokenUsage.Source.METERED))
                .cost(new Cost(new BigDecimal("0.0042"), Cost.Source.METERED_PRICE, null))
                .servedModel(new ServedModel("haiku", List.of("claude-haiku-4-5-20251001"), ServedModel.Verdict.MATCH))
                .reason(outcome.isSuccess() ? null : "stopped").build();
        return RunRecord.builder("r1", RunSpec.builder("claude-code", "anthropic").model("haiku").prompt("Do it.")
                        .baseline(tmp).build())
                .providerName("anthropic").resolvedModel("haiku")
                .baseline(new Baseline(tmp, "HEAD", "0".repeat(40), "main", false)).result(result)
                .startedAt(START).finishedAt(START.plusSeconds(6)).resultDir(resultDir).build();
    }

    private Path resultDir() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("result"));
        Files.writeString(dir.resolve("trajectory.json"), TRAJECTORY);
        return dir;
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError("no span " + name + " in " + spans.stream().map(SpanData::getName).toList()));
    }

    @Test
    void aRunIsAnInvokeAgentSpanWithAChatSpanPerModelCallAndAToolSpanPerToolCall() throws Exception {
        OtelExport.of(sdk).runFinished(record(Outcome.COMPLETED, resultDir()));

        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).hasSize(1 + 3 + 2);
        SpanData run = named(spans, "invoke_agent claude-code");
        assertThat(run.getParentSpanContext().isValid()).isFalse();
        assertThat(run.getStartEpochNanos()).isEqualTo(START.getEpochSecond() * 1_000_000_000L);
        assertThat(run.getEndEpochNanos() - run.getStartEpochNanos()).isEqualTo(6_000_000_000L);
        assertThat(run.getAttributes().get(GenAi.OPERATION_NAME)).isEqualTo("invoke_agent");
        assertThat(run.getAttributes().get(GenAi.PROVIDER_NAME)).isEqualTo("anthropic");
        assertThat(run.getAttributes().get(GenAi.REQUEST_MODEL)).isEqualTo("haiku");
        assertThat(run.getAttributes().get(GenAi.RESPONSE_MODEL)).isEqualTo("claude-haiku-4-5-20251001");
        assertThat(run.getAttributes().get(GenAi.USAGE_INPUT_TOKENS)).isEqualTo(580L);
        assertThat(run.getAttributes().get(GenAi.USAGE_OUTPUT_TOKENS)).isEqualTo(35L);
        assertThat(run.getAttributes().get(GenAi.USAGE_CACHE_READ)).isEqualTo(90L);
        assertThat(run.getAttributes().get(GenAi.USAGE_CACHE_CREATION)).isEqualTo(40L);
        assertThat(run.getAttributes().get(GenAi.H4J_COST_USD)).isEqualTo(0.0042);
        assertThat(run.getAttributes().get(GenAi.H4J_VERDICT)).isEqualTo("match");
        assertThat(run.getAttributes().get(GenAi.H4J_OUTCOME)).isEqualTo("completed");
        assertThat(run.getAttributes().get(GenAi.H4J_TRAJECTORY_SOURCE)).isEqualTo("wire-bodies");
        assertThat(run.getAttributes().get(GenAi.ERROR_TYPE)).isNull();

        List<SpanData> chats = spans.stream().filter(s -> "chat".equals(s.getAttributes().get(GenAi.OPERATION_NAME)))
                .toList();
        assertThat(chats).hasSize(3).allSatisfy(c -> {
            assertThat(c.getParentSpanId()).isEqualTo(run.getSpanId());
            assertThat(c.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(c.getName()).isEqualTo("chat claude-haiku-4-5-20251001");
        });
        SpanData first = chats.stream().filter(c -> c.getAttributes().get(GenAi.USAGE_INPUT_TOKENS) == 140L)
                .findFirst().orElseThrow();
        assertThat(first.getAttributes().get(GenAi.USAGE_OUTPUT_TOKENS)).isEqualTo(10L);
        assertThat(first.getAttributes().get(GenAi.USAGE_CACHE_CREATION)).isEqualTo(40L);
        assertThat(first.getAttributes().get(GenAi.H4J_COST_USD)).isEqualTo(0.001);
        assertThat(first.getEndEpochNanos() - first.getStartEpochNanos()).as("until the next step")
                .isEqualTo(2_000_000_000L);

        SpanData bash = named(spans, "execute_tool Bash");
        assertThat(bash.getParentSpanId()).isEqualTo(first.getSpanId());
        assertThat(bash.getAttributes().get(GenAi.TOOL_NAME)).isEqualTo("Bash");
        assertThat(bash.getAttributes().get(GenAi.TOOL_CALL_ID)).isEqualTo("tu_1");
        assertThat(named(spans, "execute_tool Write").getAttributes().get(GenAi.OPERATION_NAME))
                .isEqualTo("execute_tool");
        assertThat(spans).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(run.getTraceId()));
    }

    @Test
    void aFailedRunCarriesItsErrorType() throws Exception {
        OtelExport.of(sdk).runFinished(record(Outcome.TIMEOUT, resultDir()));

        SpanData run = named(exporter.getFinishedSpanItems(), "invoke_agent claude-code");
        assertThat(run.getAttributes().get(GenAi.ERROR_TYPE)).isEqualTo("timeout");
        assertThat(run.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void withoutAnSdkNothingIsEmittedAndABrokenTrajectoryIsNeverRead() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("broken"));
        Files.writeString(dir.resolve("trajectory.json"), "{not json");
        OtelExport.of(OpenTelemetry.noop()).runFinished(record(Outcome.COMPLETED, dir));
        OtelExport.of(sdk).runFinished(record(Outcome.COMPLETED, dir)); // read, unreadable: the run span alone

        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getName)
                .containsExactly("invoke_agent claude-code");
    }
}
