package dev.harness4j.testkit.model;

import java.util.List;
import java.util.Objects;

/**
 * One successful model answer, independent of the protocol that renders it.
 *
 * @param id a server-unique number, used to build message and tool-call ids
 * @param model the model reported as answering
 * @param text the answer's text, or {@code null} for none
 * @param toolCalls the tool calls, empty for a plain answer
 * @param usage the usage to report
 */
record Reply(long id, String model, String text, List<ToolCall> toolCalls, Usage usage) {
    Reply {
        Objects.requireNonNull(model, "model");
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(usage, "usage");
    }

    boolean usesTools() {
        return !toolCalls.isEmpty();
    }

    /**
     * One tool call.
     *
     * @param id unique suffix; protocols prefix it ({@code toolu_}, {@code call_})
     * @param name the tool's name as the client offered it
     * @param arguments the arguments as a JSON object text
     */
    record ToolCall(String id, String name, String arguments) {}
}
