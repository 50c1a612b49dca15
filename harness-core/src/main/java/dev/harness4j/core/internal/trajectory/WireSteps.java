package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import dev.harness4j.core.provider.ModelPrice;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A run's steps read from the wire: one agent step per successful model call, in arrival order.
 * With recorded bodies ({@code bodies/index.jsonl}) each step has the reply, reasoning and tool
 * calls of its response and the tool results the next request carried back as its observation;
 * without bodies ({@code requests.jsonl}
 * only) each step has its model and usage and an empty message. Per-step tokens are the wire's,
 * cost the model's price times them. One body is parsed at a time; the list of calls (at most
 * {@code MeterRun.MAX_RECORDS} small entries) is the only thing held for the whole run.
 */
final class WireSteps implements Iterator<TrajectoryStep> {
    private final Path bodies; // null: requests.jsonl only
    private final ObjectMapper json;
    private final ModelPrice price;
    private final Iterator<JsonNode> calls;
    private final Deque<TrajectoryStep> ready = new ArrayDeque<>();
    private TrajectoryStep pending;

    private WireSteps(Path bodies, List<JsonNode> calls, ObjectMapper json, ModelPrice price) {
        this.bodies = bodies;
        this.calls = calls.iterator();
        this.json = json;
        this.price = price;
    }

    /** The steps from a bodies directory (its index), or from {@code requests.jsonl} when {@code bodies} is null. */
    static Stream<TrajectoryStep> of(Path bodies, Path requests, ObjectMapper json, ModelPrice price) {
        List<JsonNode> calls = new ArrayList<>();
        Path index = bodies != null ? bodies.resolve("index.jsonl") : requests;
        if (index != null && Files.isRegularFile(index)) {
            try (BufferedReader in = Files.newBufferedReader(index, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    JsonNode n = parse(line, json);
                    boolean model = bodies != null || n.path("model_request").asBoolean(false);
                    int status = n.path("status").asInt(-1);
                    if (model && status >= 200 && status < 300) {
                        calls.add(n);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + index, e);
            }
        }
        if (bodies != null) {
            calls.sort(Comparator.comparing(n -> n.path("n").asText()));
        }
        WireSteps steps = new WireSteps(bodies, calls, json, price);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(steps, Spliterator.ORDERED), false);
    }

    private static JsonNode parse(String line, ObjectMapper json) {
        try {
            return json.readTree(line);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && calls.hasNext()) {
            advance(calls.next());
        }
        if (ready.isEmpty() && pending != null) {
            ready.add(pending);
            pending = null;
        }
        return !ready.isEmpty();
    }

    @Override
    public TrajectoryStep next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    private void advance(JsonNode call) {
        Instant at = instant(call.path("at").asText(null));
        TokenUsage usage = usage(call);
        BigDecimal cost = price == null || usage == null ? null : price.cost(usage).orElse(null);
        String answered = call.path("answered_model").isTextual() ? call.path("answered_model").asText() : null;
        if (bodies == null) {
            ready.add(TrajectoryStep.agent(answered, "").withTimestamp(at).withUsage(usage, cost));
            return;
        }
        String n = call.path("n").asText();
        JsonNode req = WireMessages.request(bodies.resolve(n + ".request"), json);
        if (pending != null) {
            Set<String> ids = pending.toolCalls().stream().map(TrajectoryStep.ToolCall::id).collect(Collectors.toSet());
            List<TrajectoryStep.ToolResult> results = new ArrayList<>();
            for (Map.Entry<String, String> r : WireMessages.toolResults(req).entrySet()) {
                if (ids.contains(r.getKey())) {
                    results.add(new TrajectoryStep.ToolResult(r.getKey(), r.getValue()));
                }
            }
            ready.add(pending.withResults(results));
        }
        WireMessages.Reply reply = WireMessages.response(bodies.resolve(n + ".response"),
                call.path("content_type").asText(null), call.path("content_encoding").asText(null), json);
        String model = answered != null ? answered : reply != null ? reply.model() : null;
        TrajectoryStep step = TrajectoryStep.agent(model, reply == null ? "" : reply.text()).withTimestamp(at)
                .withUsage(usage, cost);
        if (reply != null) {
            step = step.withReasoning(reply.reasoning()).withToolCalls(reply.toolCalls());
        }
        pending = step;
    }

    private static Instant instant(String s) {
        try {
            return s == null ? null : Instant.parse(s);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The call's usage as the meter read it, or null when it was not measured. */
    static TokenUsage usage(JsonNode call) {
        if (!call.path("measured").asBoolean(false)) {
            return null;
        }
        JsonNode u = call.path("usage");
        Long[] f = new Long[4];
        String[] names = {"input", "output", "cache_read", "cache_write"};
        boolean any = false;
        for (int i = 0; i < 4; i++) {
            f[i] = u.path(names[i]).isNumber() ? u.path(names[i]).asLong() : null;
            any |= f[i] != null;
        }
        return any ? new TokenUsage(f[0], f[1], f[2], f[3], TokenUsage.Source.METERED) : null;
    }
}
