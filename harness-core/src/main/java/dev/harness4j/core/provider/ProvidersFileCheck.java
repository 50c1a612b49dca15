package dev.harness4j.core.provider;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What is wrong with a {@link ProvidersFile}, said so that a user can fix it: malformed JSON and
 * unknown fields found by a streaming walk before binding, and binding failures turned into the
 * field, line and column they are at. A value is never quoted (a key pasted into the file must not
 * reach a message).
 */
final class ProvidersFileCheck {
    private static final List<String> TOP_FIELDS = List.of("schema_version", "providers");
    private static final List<String> ENTRY_FIELDS = List.of("name", "api_styles", "base_url", "key_env", "auth",
            "key_required", "models", "default_model", "health_path", "gateway", "prices", "cli_login");
    private static final List<String> PRICE_FIELDS = List.of("input", "output", "cache_read", "cache_write");
    private static final List<String> GATEWAY_FIELDS = List.of("type", "admin_key_env");

    private ProvidersFileCheck() {}

    /** The exception for a file Jackson could not parse or bind: where, and what was expected. */
    static ProviderConfigException describe(Path file, JsonProcessingException e) {
        String where = where(e.getLocation());
        if (!(e instanceof JsonMappingException m)) {
            // a bare token may be a key pasted without quotes: say where it is, not what it is, and do
            // not chain Jackson's exception, whose message quotes the token
            String why = String.valueOf(e.getOriginalMessage()).replaceAll("token '[^']*'", "token (not shown)");
            return new ProviderConfigException(file, "provider config " + file + " is not valid JSON at " + where
                    + ": " + why);
        }
        String pointer = pointer(m);
        Throwable cause = m.getCause();
        if (cause instanceof IllegalArgumentException bad) {
            return new ProviderConfigException(file, "provider config " + file + ", " + pointer + " (" + where
                    + "): " + bad.getMessage(), e);
        }
        if (m instanceof MismatchedInputException mi && mi.getMessage().startsWith("No content to map")) {
            return new ProviderConfigException(file, "provider config " + file + " is empty; expected"
                    + " {\"schema_version\": 1, \"providers\": [...]}", e);
        }
        String expected = m instanceof MismatchedInputException mi && mi.getTargetType() != null
                ? expectedKind(mi.getTargetType()) : "another value";
        return new ProviderConfigException(file, "provider config " + file + ", " + pointer + " (" + where
                + "): wrong type, expected " + expected, e);
    }

    private static String expectedKind(Class<?> type) {
        if (List.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class || type == int.class) {
            return "a number";
        }
        return "an object";
    }

    private static String where(JsonLocation loc) {
        return loc == null ? "an unknown position" : "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String pointer(JsonMappingException m) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : m.getPath()) {
            sb.append('/').append(r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex()));
        }
        return sb.length() == 0 ? "at the top level" : "field " + sb;
    }

    /**
     * Walks the file once with a streaming parser: reports malformed JSON with its position, and
     * collects every unknown field (name, JSON pointer, line, column) rather than stopping at the
     * first, never quoting a value (a key pasted into the file must not reach a message).
     */
    static void checkSyntaxAndFields(Path file, ObjectMapper mapper) throws IOException {
        List<String> found = new ArrayList<>();
        Set<String> knownWhere = new LinkedHashSet<>();
        try (JsonParser p = mapper.createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return; // empty or not an object: binding reports it
            }
            walk(p, TOP_FIELDS, "", found, knownWhere);
            while (p.nextToken() != null) {
                p.skipChildren(); // trailing content: let the parser reject what is malformed
            }
        }
        if (!found.isEmpty()) {
            throw new ProviderConfigException(file, "provider config " + file + " has unknown field"
                    + (found.size() == 1 ? " " : "s ") + String.join(", ", found) + "; known fields: "
                    + String.join("; ", knownWhere) + ". Remove or rename them (keys never go in this file:"
                    + " key_env names the environment variable that holds one).");
        }
    }

    private static void walk(JsonParser p, List<String> known, String pointer, List<String> found,
            Set<String> knownWhere) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonLocation at = p.currentTokenLocation();
            JsonToken value = p.nextToken();
            if (!known.contains(name)) {
                found.add("'" + name + "' in " + (pointer.isEmpty() ? "the top level" : pointer) + " (" + where(at) + ")");
                knownWhere.add((pointer.isEmpty() ? "top level" : pointer.replaceAll("/\\d+", "/*")) + ": "
                        + String.join(", ", known));
                p.skipChildren();
            } else if (pointer.isEmpty() && name.equals("providers") && value == JsonToken.START_ARRAY) {
                int i = 0;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken(), i++) {
                    if (t == JsonToken.START_OBJECT) {
                        walk(p, ENTRY_FIELDS, "/providers/" + i, found, knownWhere);
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (!pointer.isEmpty() && !pointer.contains("/prices") && name.equals("prices")
                    && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String model = p.currentName();
                    if (p.nextToken() == JsonToken.START_OBJECT) {
                        walk(p, PRICE_FIELDS, pointer + "/prices/" + model, found, knownWhere);
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (!pointer.isEmpty() && name.equals("gateway") && value == JsonToken.START_OBJECT) {
                walk(p, GATEWAY_FIELDS, pointer + "/gateway", found, knownWhere);
            } else {
                p.skipChildren();
            }
        }
    }
}
