package dev.harness4j.testkit.model;

import java.time.Duration;
import java.util.Objects;

/**
 * One model turn of a {@link Scenario}: what the server does, with the usage and the answering
 * model it reports.
 *
 * @param action what the turn does
 * @param usage the usage to report, or {@code null} for the scenario's default
 * @param answerAs the model id to report as the one that answered, or {@code null} for the
 *     scenario's default (normally the model that was asked)
 */
public record Step(Action action, Usage usage, String answerAs) {
    public Step {
        Objects.requireNonNull(action, "action");
    }

    Step withUsage(Usage u) {
        return new Step(action, Objects.requireNonNull(u, "usage"), answerAs);
    }

    Step withAnswerAs(String model) {
        return new Step(action, usage, Objects.requireNonNull(model, "model"));
    }

    /** What a turn does. */
    public sealed interface Action permits WriteFile, Shell, CallTool, Say, Fail, Stall, DropConnection {}

    /**
     * Write a file with the client's own write tool ({@code Write}, {@code write}), or, for a
     * client that offers no tools, as a whole-file edit block in the text reply.
     *
     * @param path the file's path, relative to the client's working directory (or absolute)
     * @param content the whole content
     */
    public record WriteFile(String path, String content) implements Action {
        public WriteFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(content, "content");
            if (path.isBlank()) {
                throw new IllegalArgumentException("path must not be blank");
            }
        }
    }

    /** Run a command with the client's own shell tool ({@code Bash}, {@code bash}). */
    public record Shell(String command) implements Action {
        public Shell {
            Objects.requireNonNull(command, "command");
        }
    }

    /**
     * Call a tool the client offers, by its exact name as the client lists it (an MCP server's
     * tool under the CLI's prefixed name, e.g. Claude Code's {@code mcp__probe__record}), with
     * scripted arguments. When the client offers no tool of that name, the turn answers a text
     * saying so and listing the tools it did offer.
     *
     * @param tool the tool's name
     * @param arguments the arguments, a JSON object's text
     */
    public record CallTool(String tool, String arguments) implements Action {
        public CallTool {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(arguments, "arguments");
            if (tool.isBlank()) {
                throw new IllegalArgumentException("tool must not be blank");
            }
            if (!arguments.strip().startsWith("{") || !arguments.strip().endsWith("}")) {
                throw new IllegalArgumentException("tool arguments must be a JSON object, was: " + arguments);
            }
        }
    }

    /** Answer with text and end the turn. */
    public record Say(String text) implements Action {
        public Say {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * Answer with an HTTP error.
     *
     * @param status the HTTP status
     * @param message the error message, wrapped in the provider's error shape; or, when {@code
     *     raw}, the whole response body, sent as it is
     * @param retryAfter the {@code retry-after} header's value, or {@code null} for none
     * @param raw whether {@code message} is the whole body rather than a message to wrap
     */
    public record Fail(int status, String message, Duration retryAfter, boolean raw) implements Action {
        /** A failure whose message is wrapped in the provider's error shape. */
        public Fail(int status, String message, Duration retryAfter) {
            this(status, message, retryAfter, false);
        }

        public Fail {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("fail status must be 4xx or 5xx, was " + status);
            }
            Objects.requireNonNull(message, "message");
        }
    }

    /** Send nothing for a while, then close the connection without an answer. */
    public record Stall(Duration duration) implements Action {
        public Stall {
            Objects.requireNonNull(duration, "duration");
            if (duration.isNegative()) {
                throw new IllegalArgumentException("stall duration must not be negative, was " + duration);
            }
        }
    }

    /** Start a streamed answer, then close the connection in the middle of it. */
    public record DropConnection() implements Action {}
}
