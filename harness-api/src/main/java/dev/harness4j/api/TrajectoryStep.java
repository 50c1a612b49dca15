package dev.harness4j.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One step of a run's trajectory as an adapter read it from the CLI's own events ({@link
 * Harness#trajectory(Execution)}): the user's prompt, or one model turn of the agent with its
 * tool calls and the results those calls gave. harness-core writes the steps as {@code
 * trajectory.json} (ATIF v1.7), capping and redacting the texts.
 *
 * <pre>{@code
 * TrajectoryStep.agent("claude-haiku-4-5", "Let me look.")
 *         .withToolCalls(List.of(new TrajectoryStep.ToolCall("tu_1", "Bash", "{\"command\":\"ls\"}")))
 *         .withResults(List.of(new TrajectoryStep.ToolResult("tu_1", "README.md")));
 * }</pre>
 *
 * @param source who produced the step
 * @param timestamp when it happened, or {@code null} when the CLI does not say
 * @param model the model that answered (agent steps), or {@code null}
 * @param message the text: the prompt, or the agent's reply ({@code ""} when it only called tools)
 * @param reasoning the agent's reasoning text, or {@code null}
 * @param toolCalls the tool calls of an agent step (empty otherwise)
 * @param results the results of those tool calls, as the CLI fed them back
 * @param usage the step's tokens, or {@code null} when the CLI reports none per step
 * @param costUsd the step's cost in USD as the CLI reports it, or {@code null}
 */
public record TrajectoryStep(Source source, Instant timestamp, String model, String message, String reasoning,
        List<ToolCall> toolCalls, List<ToolResult> results, TokenUsage usage, BigDecimal costUsd) {

    /** Who produced a step. */
    public enum Source {
        /** The system prompt. */
        SYSTEM,
        /** The user's prompt. */
        USER,
        /** The agent: one model turn. */
        AGENT
    }

    /**
     * One tool call of an agent step.
     *
     * @param id the call's id, as the tool result names it
     * @param name the tool's name
     * @param arguments the arguments as JSON object text ({@code "{}"} for none)
     */
    public record ToolCall(String id, String name, String arguments) {
        /**
         * Checks the parts.
         *
         * @param id the call's id
         * @param name the tool's name
         * @param arguments the arguments as JSON text
         */
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            arguments = arguments == null || arguments.isBlank() ? "{}" : arguments;
        }
    }

    /**
     * What one tool call gave back.
     *
     * @param callId the id of the call it answers
     * @param content the result's text
     */
    public record ToolResult(String callId, String content) {
        /**
         * Checks the parts.
         *
         * @param callId the call's id
         * @param content the text ({@code null} becomes {@code ""})
         */
        public ToolResult {
            Objects.requireNonNull(callId, "callId");
            content = content == null ? "" : content;
        }
    }

    /**
     * Checks the parts and copies the lists.
     *
     * @param source who produced the step
     * @param timestamp when, or {@code null}
     * @param model the answering model, or {@code null}
     * @param message the text ({@code null} becomes {@code ""})
     * @param reasoning the reasoning, or {@code null}
     * @param toolCalls the tool calls
     * @param results the tool results
     * @param usage the tokens, or {@code null}
     * @param costUsd the cost, or {@code null}
     */
    public TrajectoryStep {
        Objects.requireNonNull(source, "source");
        message = message == null ? "" : message;
        toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
        results = List.copyOf(Objects.requireNonNull(results, "results"));
        if (source != Source.AGENT && (!toolCalls.isEmpty() || model != null || reasoning != null || usage != null)) {
            throw new IllegalArgumentException("only an agent step has a model, reasoning, tool calls or usage");
        }
    }

    /**
     * A user step: the prompt.
     *
     * @param message the prompt
     * @return the step
     */
    public static TrajectoryStep user(String message) {
        return new TrajectoryStep(Source.USER, null, null, message, null, List.of(), List.of(), null, null);
    }

    /**
     * An agent step with a reply and nothing else yet.
     *
     * @param model the answering model, or {@code null}
     * @param message the reply
     * @return the step
     */
    public static TrajectoryStep agent(String model, String message) {
        return new TrajectoryStep(Source.AGENT, null, model, message, null, List.of(), List.of(), null, null);
    }

    /**
     * A copy with another timestamp.
     *
     * @param value when, or {@code null}
     * @return the copy
     */
    public TrajectoryStep withTimestamp(Instant value) {
        return new TrajectoryStep(source, value, model, message, reasoning, toolCalls, results, usage, costUsd);
    }

    /**
     * A copy with another message.
     *
     * @param value the text
     * @return the copy
     */
    public TrajectoryStep withMessage(String value) {
        return new TrajectoryStep(source, timestamp, model, value, reasoning, toolCalls, results, usage, costUsd);
    }

    /**
     * A copy with reasoning text.
     *
     * @param value the reasoning, or {@code null}
     * @return the copy
     */
    public TrajectoryStep withReasoning(String value) {
        return new TrajectoryStep(source, timestamp, model, message, value, toolCalls, results, usage, costUsd);
    }

    /**
     * A copy with these tool calls.
     *
     * @param value the calls
     * @return the copy
     */
    public TrajectoryStep withToolCalls(List<ToolCall> value) {
        return new TrajectoryStep(source, timestamp, model, message, reasoning, value, results, usage, costUsd);
    }

    /**
     * A copy with these tool results.
     *
     * @param value the results
     * @return the copy
     */
    public TrajectoryStep withResults(List<ToolResult> value) {
        return new TrajectoryStep(source, timestamp, model, message, reasoning, toolCalls, value, usage, costUsd);
    }

    /**
     * A copy with the step's tokens and cost.
     *
     * @param tokens the tokens, or {@code null}
     * @param usd the cost, or {@code null}
     * @return the copy
     */
    public TrajectoryStep withUsage(TokenUsage tokens, BigDecimal usd) {
        return new TrajectoryStep(source, timestamp, model, message, reasoning, toolCalls, results, tokens, usd);
    }
}
