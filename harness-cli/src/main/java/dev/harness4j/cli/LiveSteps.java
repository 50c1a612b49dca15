package dev.harness4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TrajectoryStep;
import dev.harness4j.core.HarnessRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A running run's trajectory steps so far, for {@code harness4j serve}: read the way the run's
 * result will be, from what is already on disk. A harness with a structured stream ({@link
 * Harness#trajectory}: Claude Code, Codex, opencode, Gemini CLI, Qwen Code) has its adapter parse
 * the output written so far ({@code io/stdout.log}; a line still being written is garbage the
 * parsers skip); any other harness gets one step per answered model call from the meter's records
 * ({@code io/requests.jsonl}: the model and its tokens, no text). Each step is one line of text.
 * Reads only; an output larger than {@link #MAX_PARSED} is not parsed again (the steps stay those
 * of the last parse).
 */
final class LiveSteps {
    /** The largest output parsed for steps: 16 MiB. */
    static final long MAX_PARSED = 16L << 20;
    /** The most characters of one step's text shown: 400. */
    static final int MAX_STEP_CHARS = 400;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HarnessRegistry harnesses;

    LiveSteps(HarnessRegistry harnesses) {
        this.harnesses = harnesses;
    }

    /** The steps of a running run of {@code harnessId} whose output grows in {@code io}. */
    List<String> steps(String harnessId, Path io) {
        Optional<Harness> harness = harnessId == null ? Optional.empty() : harnesses.find(harnessId);
        Path stdout = io.resolve("stdout.log");
        if (harness.isPresent() && Files.isRegularFile(stdout)) {
            Optional<List<String>> parsed = parsed(harness.get(), io, stdout);
            if (parsed.isPresent()) {
                return parsed.get();
            }
        }
        return wire(io.resolve("requests.jsonl"));
    }

    /** The adapter's steps from the output so far; empty when it has no structured stream. */
    private static Optional<List<String>> parsed(Harness harness, Path io, Path stdout) {
        try {
            if (Files.size(stdout) > MAX_PARSED) {
                return Optional.of(List.of("(the output passed " + (MAX_PARSED >> 20)
                        + " MiB: its steps are in the result's trajectory when the run ends)"));
            }
            Execution so = new Execution(context(io), Invocation.builder(harness.id()).workingDir(io).build(), null,
                    Termination.exited(), stdout, io.resolve("stderr.log"), GitChanges.none(GitChanges.NO_COMMIT),
                    Duration.ZERO, null, null);
            Optional<Stream<TrajectoryStep>> steps = harness.trajectory(so);
            if (steps.isEmpty()) {
                return Optional.empty();
            }
            List<String> out = new ArrayList<>();
            try (Stream<TrajectoryStep> s = steps.get()) {
                s.forEach(step -> out.add(text(step)));
            }
            return Optional.of(out);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // the output went away with the run's directory, or the adapter choked: the wire's steps
        }
    }

    /** A context for the parsers, which read only the output lines. */
    private static HarnessContext context(Path io) {
        return HarnessContext.builder().runId("live").prompt("").provider(ResolvedProvider.cliLogin("live", "live"))
                .workspace(io).scratchDir(io).executable("live").build();
    }

    /** One step per answered model call of the meter's records. */
    static List<String> wire(Path requests) {
        List<String> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(requests);
        } catch (IOException e) {
            return out; // no meter for this run (yet)
        }
        for (String line : lines) {
            try {
                JsonNode r = JSON.readTree(line);
                int status = r.path("status").asInt(-1);
                if (r.path("model_request").asBoolean(false) && status >= 200 && status < 300) {
                    String model = r.hasNonNull("answered_model") ? r.get("answered_model").asText()
                            : r.path("requested_model").asText("?");
                    JsonNode u = r.path("usage");
                    out.add("agent (" + model + "): a model call, " + tokens(u, "input") + " in, " + tokens(u, "output")
                            + " out");
                }
            } catch (IOException e) {
                // a line being written
            }
        }
        return out;
    }

    private static String tokens(JsonNode r, String field) {
        return r.hasNonNull(field) ? r.get(field).asText() : "unmeasured";
    }

    /** {@code source: message [tool(args)…] → result}, cut at {@link #MAX_STEP_CHARS}. */
    static String text(TrajectoryStep s) {
        StringBuilder b = new StringBuilder(s.source().name().toLowerCase(java.util.Locale.ROOT));
        if (s.model() != null && !s.model().isBlank()) {
            b.append(" (").append(s.model()).append(')');
        }
        b.append(": ");
        if (s.message() != null && !s.message().isBlank()) {
            b.append(s.message().strip());
        }
        for (TrajectoryStep.ToolCall c : s.toolCalls()) {
            b.append(" [").append(c.name()).append(' ').append(c.arguments()).append(']');
        }
        for (TrajectoryStep.ToolResult r : s.results()) {
            b.append(" → ").append(r.content().strip());
        }
        String t = b.toString().replace('\n', ' ');
        return t.length() <= MAX_STEP_CHARS ? t : t.substring(0, MAX_STEP_CHARS) + "…";
    }

    /** The steps as the {@code steps} event's data: a JSON array of strings. */
    static String json(List<String> steps) {
        return LiveServer.json(Map.of("steps", steps));
    }
}
