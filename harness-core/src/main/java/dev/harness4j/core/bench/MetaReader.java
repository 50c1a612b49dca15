package dev.harness4j.core.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the fields a {@link ResultRow} needs from one {@code meta.json} with Jackson's streaming
 * parser (no tree: a summary reads thousands of these). Unknown fields and nested values that
 * are not needed are skipped. Thread-safe (the factory is).
 */
final class MetaReader {
    private static final JsonFactory FACTORY = new JsonFactory();

    private MetaReader() {}

    /** The scalar fields of the document, keyed by {@code field} or {@code object.field} (one level deep). */
    static Map<String, Object> scalars(byte[] json) throws IOException {
        Map<String, Object> out = new HashMap<>(64);
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            readObject(p, "", out, 0);
            if (p.nextToken() != null) {
                throw new IOException("trailing content after the JSON object");
            }
        }
        return out;
    }

    private static void readObject(JsonParser p, String prefix, Map<String, Object> out, int depth) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
            if (t != JsonToken.FIELD_NAME) {
                throw new IOException("malformed object");
            }
            String key = prefix + p.currentName();
            JsonToken v = p.nextToken();
            switch (v) {
                case START_OBJECT -> {
                    out.put(key, Boolean.TRUE); // present, and an object
                    if (depth == 0) {
                        readObject(p, key + ".", out, depth + 1);
                    } else {
                        p.skipChildren();
                    }
                }
                case START_ARRAY -> p.skipChildren();
                case VALUE_STRING -> out.put(key, p.getText());
                case VALUE_NUMBER_INT -> out.put(key, p.getLongValue());
                case VALUE_NUMBER_FLOAT -> out.put(key, p.getDecimalValue());
                case VALUE_TRUE, VALUE_FALSE -> out.put(key, p.getBooleanValue());
                case VALUE_NULL -> out.put(key, null);
                default -> throw new IOException("unexpected token " + v);
            }
        }
    }

    static String text(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof String s ? s : v instanceof Number || v instanceof Boolean ? v.toString() : null;
    }

    static Long number(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Long l ? l : v instanceof BigDecimal d ? d.longValue() : null;
    }

    static BigDecimal decimal(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof BigDecimal d ? d : v instanceof Long l ? BigDecimal.valueOf(l) : null;
    }
}
