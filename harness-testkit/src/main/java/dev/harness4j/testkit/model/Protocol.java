package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.util.ArrayList;
import java.util.List;

/** One model API's wire format: how to read a request and how to write answers and errors. */
interface Protocol {

    /** A short name for logs and recorded requests, e.g. {@code anthropic-messages}. */
    String name();

    ParsedRequest parse(JsonNode body, Headers headers);

    /** The non-streamed answer. */
    ObjectNode response(ParsedRequest req, Reply reply);

    /** The streamed answer, event by event. */
    List<SseEvent> events(ParsedRequest req, Reply reply);

    /** The provider's error body for an HTTP error. */
    ObjectNode error(int status, String message);

    /** Splits text into a few pieces, so a stream carries more than one delta. */
    static List<String> pieces(String s) {
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            out.add(s);
            return out;
        }
        int size = Math.max(1, (s.length() + 2) / 3);
        for (int i = 0; i < s.length(); i += size) {
            int end = Math.min(s.length(), i + size);
            // never split a surrogate pair
            if (end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))) {
                end++;
            }
            out.add(s.substring(i, end));
            i = end - size;
        }
        return out;
    }

    /** The session header a client sends, or {@code null}. */
    static String sessionId(Headers h) {
        for (String name : List.of("x-claude-code-session-id", "x-session-id", "session_id", "x-session-affinity")) {
            String v = h.getFirst(name);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    static String userAgent(Headers h) {
        String ua = h.getFirst("user-agent");
        return ua == null ? "" : ua;
    }
}
