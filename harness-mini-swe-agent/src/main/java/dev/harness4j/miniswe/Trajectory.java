package dev.harness4j.miniswe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What mini-swe-agent's trajectory file ({@code trajectory_format} {@code mini-swe-agent-1.1})
 * says about a run, folded into sums: {@code info.exit_status}, {@code info.model_stats}, the
 * agent's limits, and per model answer ({@code messages[].extra.response}) the usage and the
 * model that answered.
 *
 * @param exitStatus {@code info.exit_status}: {@code Submitted}, {@code LimitsExceeded}, {@code
 *     TimeExceeded}, {@code RepeatedFormatError}, or the name of the exception that ended the run
 *     ({@code RateLimitError}, {@code APIConnectionError}, ...); {@code null} when absent
 * @param exceptionText the exit message's {@code exception_str} (else its content), or {@code null}
 * @param statusCode the failing response's HTTP status the harness4j agent recorded, or {@code null}
 * @param responseHeaders the failing response's headers the harness4j agent recorded, lower-cased names
 * @param failedAtEpochSeconds when the harness4j agent recorded the failure, or {@code null}
 * @param apiCalls {@code info.model_stats.api_calls}, or {@code null}
 * @param cost {@code info.model_stats.instance_cost}, or {@code null}
 * @param stepLimit the agent's {@code step_limit} (0: none), or {@code null}
 * @param answers how many model answers carried usage
 * @param promptTokens sum of {@code usage.prompt_tokens} (cache reads included), or {@code null}
 *     when an answer's usage lacked it (unmeasured, not 0)
 * @param cachedTokens sum of {@code usage.prompt_tokens_details.cached_tokens} (OpenAI's usage
 *     without cache details reported none cached: 0)
 * @param cacheWriteTokens sum of {@code usage.cache_creation_input_tokens}, or {@code null} when an
 *     answer's usage lacked it (OpenAI's usage never has it: unmeasured, not 0)
 * @param completionTokens sum of {@code usage.completion_tokens}, or {@code null} when an answer's
 *     usage lacked it
 * @param answeredModels the distinct {@code response.model} values, in order
 * @param lastText the last non-blank assistant text, or {@code null}
 */
record Trajectory(
        String exitStatus, String exceptionText, Integer statusCode, Map<String, String> responseHeaders,
        Double failedAtEpochSeconds, Long apiCalls, BigDecimal cost, Integer stepLimit, int answers,
        Long promptTokens, long cachedTokens, Long cacheWriteTokens, Long completionTokens,
        List<String> answeredModels, String lastText) {

    private static final ObjectMapper JSON = new ObjectMapper();

    Trajectory {
        responseHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(responseHeaders)));
        answeredModels = List.copyOf(answeredModels);
    }

    /** Reads the file; empty when it does not exist or is not a trajectory (a run that died at start). */
    static Optional<Trajectory> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return of(JSON.readTree(file.toFile()));
        } catch (IOException e) { // half-written (killed while saving) or not JSON: nothing to read
            return Optional.empty();
        }
    }

    /** Reads a parsed trajectory; empty when it is none. */
    static Optional<Trajectory> of(JsonNode root) {
        if (root == null || !root.isObject() || !root.path("messages").isArray()) {
            return Optional.empty();
        }
        JsonNode info = root.path("info");
        int answers = 0;
        Long prompt = 0L;
        long cached = 0;
        Long cacheWrite = 0L;
        Long completion = 0L;
        Set<String> models = new LinkedHashSet<>();
        String lastText = null;
        JsonNode exit = null;
        for (JsonNode m : root.path("messages")) {
            String role = m.path("role").asText("");
            JsonNode response = m.path("extra").path("response");
            if (response.isObject()) {
                JsonNode usage = response.path("usage");
                if (usage.isObject()) {
                    answers++;
                    prompt = add(prompt, usage.path("prompt_tokens"));
                    cached += count(usage.path("prompt_tokens_details").path("cached_tokens"));
                    cacheWrite = add(cacheWrite, usage.path("cache_creation_input_tokens"));
                    completion = add(completion, usage.path("completion_tokens"));
                }
                String model = text(response.path("model"));
                if (model != null && !model.isBlank()) {
                    models.add(model);
                }
            }
            if (role.equals("assistant")) {
                String content = text(m.path("content"));
                if (content != null && !content.isBlank()) {
                    lastText = content.strip();
                }
            } else if (role.equals("exit")) {
                exit = m;
            }
        }
        JsonNode exitExtra = exit == null ? JSON.createObjectNode() : exit.path("extra");
        String exceptionText = text(exitExtra.path("exception_str"));
        if (exceptionText == null && exit != null) {
            exceptionText = text(exit.path("content"));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        exitExtra.path("harness4j_response_headers").fields()
                .forEachRemaining(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
        JsonNode stats = info.path("model_stats");
        JsonNode stepLimit = info.path("config").path("agent").path("step_limit");
        String exitStatus = text(info.path("exit_status"));
        return Optional.of(new Trajectory(
                exitStatus == null || exitStatus.isBlank() ? null : exitStatus,
                exceptionText,
                exitExtra.path("harness4j_status_code").isInt() ? exitExtra.path("harness4j_status_code").asInt() : null,
                headers,
                exitExtra.path("harness4j_failed_at").isNumber() ? exitExtra.path("harness4j_failed_at").asDouble() : null,
                stats.path("api_calls").isNumber() ? stats.path("api_calls").asLong() : null,
                stats.path("instance_cost").isNumber() ? stats.path("instance_cost").decimalValue() : null,
                stepLimit.isInt() ? stepLimit.asInt() : null,
                answers, prompt, cached, cacheWrite, completion, List.copyOf(models), lastText));
    }

    /** The sum with the field's count; {@code null} from the first answer that lacks the field on. */
    private static Long add(Long sum, JsonNode n) {
        return sum == null || !n.isNumber() ? null : sum + Math.max(0, n.asLong());
    }

    private static long count(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : 0;
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }
}
