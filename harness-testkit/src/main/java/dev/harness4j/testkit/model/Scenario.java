package dev.harness4j.testkit.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the {@link ScriptedModelServer} answers for one model id: a sequence of steps, one per
 * model turn. Immutable.
 *
 * <p>A request that is the conversation's next turn plays the next step; when the steps run out
 * every further turn answers {@code "Done."}. A turn is a request that offers tools, or a
 * tool-less request that is not a side request (see {@link ScriptedModelServer} for the rule).
 * Side requests (title generation, commit messages) get a short answer and consume no step. A
 * request that repeats the previous turn's conversation unchanged replays that turn instead of
 * consuming a step; a request after a failed, stalled or dropped turn (a retry) plays the next
 * step.
 *
 * <p>{@link Builder#usage} and {@link Builder#answerAs} modify the step added last; called
 * before any step they set the default for every turn of the scenario, including the final
 * {@code "Done."} turn.
 *
 * <pre>{@code
 * Scenario scenario = Scenario.builder()
 *         .writeFile("hello.txt", "hello\n").usage(100, 20, 0, 0)
 *         .shell("echo hi > hi.txt").usage(120, 10, 100, 0)
 *         .say("Done.").usage(130, 5, 0, 0)
 *         .build();
 * }</pre>
 */
public final class Scenario {
    /** The text of the turn played when the steps have run out. */
    public static final String DONE = "Done.";

    /** The message of {@link Builder#failContextLength()}, worded like Anthropic's. */
    public static final String CONTEXT_LENGTH_MESSAGE =
            "prompt is too long: 250000 tokens > 200000 maximum (maximum context length exceeded)";

    /**
     * What {@link Builder#failContextLength()} says on the OpenAI APIs, worded like OpenAI's (the
     * wording LiteLLM, and so aider, recognises as a context-window error).
     */
    public static final String OPENAI_CONTEXT_LENGTH_MESSAGE = "This model's maximum context length is 200000 tokens."
            + " However, your messages resulted in 250000 tokens. Please reduce the length of the messages.";

    private final List<Step> steps;
    private final Usage defaultUsage;
    private final String defaultAnswerAs;

    private Scenario(Builder b) {
        this.steps = List.copyOf(b.steps);
        this.defaultUsage = b.defaultUsage;
        this.defaultAnswerAs = b.defaultAnswerAs;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A scenario without steps: every turn answers {@code "Done."}. */
    public static Scenario empty() {
        return builder().build();
    }

    /** The scripted steps, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The usage a step without its own reports. */
    public Usage defaultUsage() {
        return defaultUsage;
    }

    /** The model reported as answering when a step names none; {@code null} means the one asked. */
    public String defaultAnswerAs() {
        return defaultAnswerAs;
    }

    /** The step played when the script has run out. */
    Step doneStep() {
        return new Step(new Step.Say(DONE), defaultUsage, defaultAnswerAs);
    }

    /** The step with the scenario's defaults filled in. */
    Step resolved(Step step) {
        return new Step(step.action(), step.usage() != null ? step.usage() : defaultUsage,
                step.answerAs() != null ? step.answerAs() : defaultAnswerAs);
    }

    @Override
    public String toString() {
        return "Scenario" + steps;
    }

    /** Builds a {@link Scenario}; not thread-safe. */
    public static final class Builder {
        private final List<Step> steps = new ArrayList<>();
        private Usage defaultUsage = Usage.DEFAULT;
        private String defaultAnswerAs;

        private Builder() {}

        /** A turn that writes {@code path} (relative to the client's working directory) with {@code content}. */
        public Builder writeFile(String path, String content) {
            return add(new Step.WriteFile(path, content));
        }

        /** A turn that runs {@code command} with the client's shell tool. */
        public Builder shell(String command) {
            return add(new Step.Shell(command));
        }

        /**
         * A turn that calls the client's tool {@code tool} (its exact name as the client offers
         * it) with {@code argumentsJson}, a JSON object's text.
         */
        public Builder callTool(String tool, String argumentsJson) {
            return add(new Step.CallTool(tool, argumentsJson));
        }

        /** A turn that answers {@code text} and ends the turn. */
        public Builder say(String text) {
            return add(new Step.Say(text));
        }

        /** A turn that fails with {@code status} and {@code message} in the provider's error shape. */
        public Builder fail(int status, String message) {
            return add(new Step.Fail(status, message, null));
        }

        /** A turn that fails with {@code status} and exactly {@code body} (sent as JSON, unwrapped). */
        public Builder failWithBody(int status, String body) {
            return add(new Step.Fail(status, body, null, true));
        }

        /** A turn that fails with 429 and a {@code retry-after} header. */
        public Builder failRateLimited(Duration retryAfter) {
            Objects.requireNonNull(retryAfter, "retryAfter");
            return add(new Step.Fail(429, "rate limit exceeded: scripted 429", retryAfter));
        }

        /**
         * A turn that fails with 429, a {@code retry-after} header and {@code message} in the
         * provider's error shape, e.g. OpenAI's {@code "Rate limit reached ... Please try again
         * in 20s."}, whose wait differs from the header's.
         */
        public Builder failRateLimited(Duration retryAfter, String message) {
            Objects.requireNonNull(retryAfter, "retryAfter");
            return add(new Step.Fail(429, Objects.requireNonNull(message, "message"), retryAfter));
        }

        /**
         * A turn that fails with 400 and a context-length message: {@link #CONTEXT_LENGTH_MESSAGE}
         * on the Anthropic API, {@link #OPENAI_CONTEXT_LENGTH_MESSAGE} (code {@code
         * context_length_exceeded}) on the OpenAI APIs.
         */
        public Builder failContextLength() {
            return fail(400, CONTEXT_LENGTH_MESSAGE);
        }

        /** A turn that fails with 529 overloaded (Anthropic's overloaded status). */
        public Builder failOverloaded() {
            return fail(529, "Overloaded");
        }

        /** A turn that sends nothing for {@code duration}, then closes the connection. */
        public Builder stall(Duration duration) {
            return add(new Step.Stall(duration));
        }

        /** A turn that starts streaming, then closes the connection mid-stream. */
        public Builder dropConnection() {
            return add(new Step.DropConnection());
        }

        /** The usage of the step added last, or the scenario's default before any step. */
        public Builder usage(long input, long output, long cacheRead, long cacheWrite) {
            Usage u = new Usage(input, output, cacheRead, cacheWrite);
            if (steps.isEmpty()) {
                defaultUsage = u;
            } else {
                steps.set(steps.size() - 1, steps.get(steps.size() - 1).withUsage(u));
            }
            return this;
        }

        /** The model reported as answering the step added last, or every turn before any step. */
        public Builder answerAs(String modelId) {
            Objects.requireNonNull(modelId, "modelId");
            if (modelId.isBlank()) {
                throw new IllegalArgumentException("answerAs model id must not be blank");
            }
            if (steps.isEmpty()) {
                defaultAnswerAs = modelId;
            } else {
                steps.set(steps.size() - 1, steps.get(steps.size() - 1).withAnswerAs(modelId));
            }
            return this;
        }

        private Builder add(Step.Action action) {
            steps.add(new Step(action, null, null));
            return this;
        }

        public Scenario build() {
            return new Scenario(this);
        }
    }
}
