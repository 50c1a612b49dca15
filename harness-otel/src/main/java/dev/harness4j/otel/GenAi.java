package dev.harness4j.otel;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute keys the spans carry: OpenTelemetry's GenAI semantic conventions ({@code
 * gen_ai.*}, {@code error.type}) and harness4j's own ({@code harness4j.*}).
 */
public final class GenAi {
    /** {@code gen_ai.operation.name} of a run's span. */
    public static final String INVOKE_AGENT = "invoke_agent";
    /** {@code gen_ai.operation.name} of a model call's span. */
    public static final String CHAT = "chat";
    /** {@code gen_ai.operation.name} of a tool call's span. */
    public static final String EXECUTE_TOOL = "execute_tool";

    public static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER_NAME = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
    public static final AttributeKey<String> CONVERSATION_ID = AttributeKey.stringKey("gen_ai.conversation.id");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    /** Input tokens, cached ones included (as the conventions count them). */
    public static final AttributeKey<Long> USAGE_INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> USAGE_OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<Long> USAGE_CACHE_READ =
            AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens");
    public static final AttributeKey<Long> USAGE_CACHE_CREATION =
            AttributeKey.longKey("gen_ai.usage.cache_creation.input_tokens");
    public static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    public static final AttributeKey<String> H4J_RUN_ID = AttributeKey.stringKey("harness4j.run_id");
    public static final AttributeKey<String> H4J_OUTCOME = AttributeKey.stringKey("harness4j.outcome");
    /** The served-model verdict: {@code match}, {@code mismatch}, {@code unmeasured}. */
    public static final AttributeKey<String> H4J_VERDICT = AttributeKey.stringKey("harness4j.served_model.verdict");
    public static final AttributeKey<Double> H4J_COST_USD = AttributeKey.doubleKey("harness4j.cost_usd");
    public static final AttributeKey<String> H4J_COST_SOURCE = AttributeKey.stringKey("harness4j.cost_source");
    /** Where the run's steps came from: {@code adapter}, {@code wire-bodies}, {@code wire-requests}. */
    public static final AttributeKey<String> H4J_TRAJECTORY_SOURCE =
            AttributeKey.stringKey("harness4j.trajectory_source");

    private GenAi() {}
}
