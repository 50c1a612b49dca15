package dev.harness4j.core.internal.phase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an agent (or the summarizer) claims about a phase, read strictly from the report JSON:
 * one object, only the known keys, {@code completed} a boolean and {@code summary} a string
 * (both required), {@code committed} a boolean, {@code commit_message} and {@code
 * next_phase_notes} strings or null, {@code blockers} an array of strings. {@code committed} is
 * read for validation only: git decides it.
 *
 * @param completed whether the agent says the task is done
 * @param commitMessage the commit message it gives, or {@code null}
 * @param summary what it says it did
 * @param nextPhaseNotes its notes for the next phase, or {@code null}
 * @param blockers what it says stood in its way
 */
record Claims(boolean completed, String commitMessage, String summary, String nextPhaseNotes, List<String> blockers) {
    /** The keys a report may have. */
    static final Set<String> KEYS = Set.of("completed", "committed", "commit_message", "summary", "next_phase_notes",
            "blockers");
    /** The longest text kept of any one field; longer text is cut with a marker. */
    static final int MAX_FIELD_CHARS = 4_000;
    /** The most blockers kept. */
    static final int MAX_BLOCKERS = 20;

    Claims {
        Objects.requireNonNull(summary, "summary");
        blockers = List.copyOf(blockers);
    }

    /** Thrown for a report that breaks the rules; the message says which rule. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /**
     * Parses and validates a report.
     *
     * @param requireCommitted whether {@code committed} must be present (the self-report's contract
     *     asks for it; the summarizer cannot know it)
     * @throws Invalid when the text is not such an object
     */
    static Claims parse(ObjectMapper mapper, String text, boolean requireCommitted) throws Invalid {
        JsonNode n;
        try {
            n = mapper.readTree(text);
        } catch (java.io.IOException e) {
            throw new Invalid("not JSON: " + firstLine(e.getMessage()));
        }
        if (n == null || !n.isObject()) {
            throw new Invalid("not a JSON object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            String key = it.next().getKey();
            if (!KEYS.contains(key)) {
                throw new Invalid("unknown key '" + cut(key, 80) + "' (allowed: " + new java.util.TreeSet<>(KEYS) + ")");
            }
        }
        if (!n.path("completed").isBoolean()) {
            throw new Invalid("'completed' must be true or false");
        }
        if (n.has("committed") ? !n.get("committed").isBoolean() : requireCommitted) {
            throw new Invalid("'committed' must be true or false");
        }
        if (!n.path("summary").isTextual() || n.get("summary").textValue().isBlank()) {
            throw new Invalid("'summary' must be a non-empty string");
        }
        List<String> blockers = new ArrayList<>();
        JsonNode b = n.get("blockers");
        if (b != null && !b.isNull()) {
            if (!b.isArray()) {
                throw new Invalid("'blockers' must be an array of strings");
            }
            for (JsonNode e : b) {
                if (!e.isTextual()) {
                    throw new Invalid("'blockers' must be an array of strings");
                }
                if (!e.textValue().isBlank() && blockers.size() < MAX_BLOCKERS) {
                    blockers.add(cut(e.textValue().strip(), MAX_FIELD_CHARS));
                }
            }
        }
        return new Claims(n.get("completed").booleanValue(), optionalText(n, "commit_message"),
                cut(n.get("summary").textValue().strip(), MAX_FIELD_CHARS), optionalText(n, "next_phase_notes"), blockers);
    }

    private static String optionalText(JsonNode n, String key) throws Invalid {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid("'" + key + "' must be a string or null");
        }
        String s = v.textValue().strip();
        return s.isEmpty() ? null : cut(s, MAX_FIELD_CHARS);
    }

    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + " [cut]";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return cut(nl < 0 ? s : s.substring(0, nl), 200);
    }
}
