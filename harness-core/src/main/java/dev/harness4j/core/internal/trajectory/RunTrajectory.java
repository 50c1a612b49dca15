package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import dev.harness4j.core.Installation;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.util.Json;
import dev.harness4j.core.provider.ModelPrice;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a finished run's {@code trajectory.json} (ATIF v1.7): the run's prompt as the first
 * (user) step, then the agent's steps from the first source that has them — the adapter's own
 * events ({@link Harness#trajectory}), else the wire with recorded bodies ({@code bodies/}),
 * else the wire's requests alone ({@code requests.jsonl}: one step per model call, no text) —
 * and harness4j's own facts under {@code extra.harness4j}, {@code trajectory_source} naming the
 * source used. {@code final_metrics} are the run's tokens and cost as {@code meta.json} has them
 * (the metered ones when the run was metered). Never fails the run: a trajectory that cannot be
 * written is logged and left out.
 */
public final class RunTrajectory {
    /** The trajectory's file name in the result dir. */
    public static final String FILE = "trajectory.json";
    /** The directory of recorded bodies, in the run's io dir and its result dir. */
    public static final String BODIES = "bodies";

    private static final Logger log = LoggerFactory.getLogger(RunTrajectory.class);

    private RunTrajectory() {}

    /** Where the agent steps came from. */
    enum Source {
        ADAPTER("adapter"), WIRE_BODIES("wire-bodies"), WIRE_REQUESTS("wire-requests"), NONE("none");

        final String wireName;

        Source(String wireName) {
            this.wireName = wireName;
        }
    }

    /**
     * The run's further result files: {@code given}, plus {@value #FILE} (written to {@code
     * target} here) and the recorded bodies ({@value #BODIES}, a directory) when there are any.
     *
     * @param ioDir the run's io dir when it was metered, else {@code null}
     */
    public static Map<String, Path> files(Map<String, Path> given, Path target, RunRecord record, Harness harness,
            Execution execution, Path ioDir, ModelPrice price, Redactor redactor) {
        Map<String, Path> out = new LinkedHashMap<>(given);
        if (write(target, record, harness, execution, ioDir, price, redactor)) {
            out.put(FILE, target);
        }
        if (ioDir != null && Files.isDirectory(ioDir.resolve(BODIES))) {
            out.put(BODIES, ioDir.resolve(BODIES));
        }
        return out;
    }

    /**
     * Writes the trajectory of a finished run to {@code target}; returns whether it was written.
     *
     * @param target the file to write (created; replaced if present)
     * @param record the run's record
     * @param harness the adapter
     * @param execution what the process did, or {@code null} when it never ran
     * @param ioDir the run's io dir (with {@code requests.jsonl}, {@code bodies/}), or {@code null}
     * @param price the model's price, or {@code null}
     * @param redactor the run's secrets
     */
    public static boolean write(Path target, RunRecord record, Harness harness, Execution execution, Path ioDir,
            ModelPrice price, Redactor redactor) {
        if (execution != null) {
            try {
                Optional<Stream<TrajectoryStep>> own = harness.trajectory(execution);
                if (own.isPresent() && write(target, record, harness, execution, own.get(), Source.ADAPTER, redactor)) {
                    return true;
                }
            } catch (RuntimeException e) {
                log.info("run {}: {} could not tell its trajectory ({}); reading the wire", record.runId(),
                        harness.id(), redactor.redact(String.valueOf(e.getMessage())));
            }
        }
        ObjectMapper json = Json.mapper();
        try {
            if (ioDir != null && Files.isRegularFile(ioDir.resolve(BODIES).resolve("index.jsonl"))) {
                return write(target, record, harness, execution, WireSteps.of(ioDir.resolve(BODIES), null, json, price),
                        Source.WIRE_BODIES, redactor);
            }
            if (ioDir != null && record.meter() != null && Files.isRegularFile(ioDir.resolve("requests.jsonl"))) {
                return write(target, record, harness, execution,
                        WireSteps.of(null, ioDir.resolve("requests.jsonl"), json, price), Source.WIRE_REQUESTS, redactor);
            }
        } catch (RuntimeException e) {
            log.warn("run {}: could not read the wire for {}: {}", record.runId(), FILE, redactor.redact(e.toString()));
        }
        return write(target, record, harness, execution, Stream.empty(), Source.NONE, redactor);
    }

    /** Writes the file from one source; false (nothing left behind) when reading or writing fails. */
    private static boolean write(Path target, RunRecord record, Harness harness, Execution execution,
            Stream<TrajectoryStep> steps, Source source, Redactor redactor) {
        ObjectMapper json = Json.mapper();
        try (Stream<TrajectoryStep> s = steps;
                OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 64 * 1024);
                AtifWriter w = new AtifWriter(out, json, redactor)) {
            writeAll(w, s.iterator(), record, harness, execution, source, json);
            return true;
        } catch (IOException | RuntimeException e) {
            log.warn("run {}: could not write {} from {}: {}", record.runId(), FILE, source.wireName,
                    redactor.redact(e.toString()));
            try {
                Files.deleteIfExists(target);
            } catch (IOException ex) {
                log.debug("could not remove {}: {}", target, ex.toString());
            }
            return false;
        }
    }

    private static void writeAll(AtifWriter w, Iterator<TrajectoryStep> steps, RunRecord record, Harness harness,
            Execution execution, Source source, ObjectMapper json) throws IOException {
        HarnessResult result = record.result();
        Object cli = record.sections().get("cli");
        String version = cli instanceof Installation i ? i.version() : null;
        w.begin(record.runId(), harness.id(), version, record.resolvedModel(), null);
        String prompt = execution != null ? execution.context().prompt() : record.spec().prompt();
        w.step(TrajectoryStep.user(prompt).withTimestamp(record.startedAt()), null, null);
        Integer llmCalls = source == Source.ADAPTER ? null : 1; // the wire's steps are one model call each
        while (steps.hasNext()) {
            w.step(steps.next(), null, llmCalls);
        }
        TokenUsage tokens = result == null ? null : result.tokens();
        BigDecimal cost = result == null || result.cost() == null ? null : result.cost().usd();
        String notes = switch (source) {
            case WIRE_REQUESTS -> "agent steps read from the wire without bodies (recordBodies off): one step per "
                    + "model call with its model and tokens, no text or tool calls";
            case NONE -> "no agent steps: the adapter reports none and the run was not metered";
            default -> null;
        };
        w.end(notes, tokens, cost, TrajectoryExtra.of(json, record, source.wireName));
    }
}
