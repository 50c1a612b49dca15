package dev.harness4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what a verifier wrote as its rewards: one number in {@code reward.txt}, named metrics in
 * {@code reward.json} ({@code {"tests": 1.0, "lint": 0.5}}), or both (the text file's number is
 * then the metric {@code reward}, unless the JSON names one). Every number must be in [0, 1]. The
 * run's reward is the task's primary metric, else the metric {@code reward}, else the mean.
 */
final class VerifierRewards {
    /** The metric that is the reward when the task names no primary one and the verifier wrote it. */
    static final String REWARD = "reward";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What was read.
     *
     * @param reward the run's reward, or {@code null} when none was written (or it was bad)
     * @param metrics the named metrics, in the verifier's order; empty when it wrote no JSON
     * @param problem what was wrong with the files, or {@code null}
     */
    record Read(Double reward, Map<String, Double> metrics, String problem) {
        Read {
            metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        }

        static Read bad(String problem) {
            return new Read(null, Map.of(), problem);
        }

        boolean written() {
            return reward != null;
        }
    }

    private VerifierRewards() {}

    /**
     * Reads the files that exist of {@code txt} and {@code json}.
     *
     * @param primary the task's primary metric, or {@code null}
     * @param txtName how {@code txt} is named in a problem ({@code reward.txt}, say)
     * @param jsonName how {@code json} is named in a problem
     */
    static Read read(Path txt, Path json, String primary, String txtName, String jsonName) {
        Double single = null;
        Map<String, Double> metrics = new LinkedHashMap<>();
        try {
            if (Files.exists(txt)) {
                String text = Files.readString(txt, StandardCharsets.UTF_8).strip();
                try {
                    single = Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    return Read.bad(txtName + " holds no number in [0, 1] (" + e.getMessage() + ")");
                }
                if (!inRange(single)) {
                    return Read.bad(txtName + " holds no number in [0, 1] (" + text + ": not in [0, 1])");
                }
            }
            if (Files.exists(json)) {
                JsonNode n;
                try {
                    n = JSON.readTree(json.toFile());
                } catch (IOException e) {
                    return Read.bad(jsonName + " is not JSON (" + TaskSuite.firstLine(e.getMessage()) + "): write an object of"
                            + " named numbers, {\"tests\": 1.0, \"lint\": 0.5}");
                }
                if (n == null || !n.isObject() || n.isEmpty()) {
                    return Read.bad(jsonName + " must be a non-empty JSON object of named numbers in [0, 1], was "
                            + (n == null ? "empty" : abbreviate(n.toString())));
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonNode v = e.getValue();
                    if (!v.isNumber() || !inRange(v.doubleValue())) {
                        return Read.bad(jsonName + ": the metric \"" + e.getKey() + "\" must be a number in [0, 1], was "
                                + abbreviate(v.toString()));
                    }
                    metrics.put(e.getKey(), v.doubleValue());
                }
                if (single != null) {
                    metrics.putIfAbsent(REWARD, single);
                }
            }
        } catch (IOException e) {
            return Read.bad("the reward files cannot be read (" + e + ")");
        }
        if (metrics.isEmpty()) {
            if (primary != null && single != null) {
                return Read.bad("the task's primary metric \"" + primary + "\" needs " + jsonName + "; the verifier"
                        + " wrote only " + txtName);
            }
            return new Read(single, Map.of(), null);
        }
        if (primary != null) {
            if (!metrics.containsKey(primary)) {
                return Read.bad("the task's primary metric \"" + primary + "\" is not in " + jsonName + " (it has "
                        + String.join(", ", metrics.keySet()) + ")");
            }
            return new Read(metrics.get(primary), metrics, null);
        }
        if (metrics.containsKey(REWARD)) {
            return new Read(metrics.get(REWARD), metrics, null);
        }
        return new Read(metrics.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow(), metrics, null);
    }

    private static boolean inRange(double v) {
        return v >= 0.0 && v <= 1.0;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
