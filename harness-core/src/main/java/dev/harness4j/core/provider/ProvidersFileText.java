package dev.harness4j.core.provider;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The text edits of a {@link ProvidersFileEdit}: a provider entry put after the last one, or one
 * provider's {@code models} array replaced (or added), found with a streaming parser and spliced
 * into the file's own text, so that field order, omitted defaults, formatting and the other
 * providers stay byte for byte. Pure functions of the text.
 */
final class ProvidersFileText {
    private ProvidersFileText() {}

    /** The text with the provider's entry put after the last entry of {@code providers}, in the file's layout. */
    static String withEntry(String text, ProviderConfig config) {
        try (JsonParser p = atProviders(text)) {
            int arrayStart = offset(p);
            int firstEntry = -1;
            int lastEnd = -1;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                firstEntry = firstEntry < 0 ? offset(p) : firstEntry;
                p.skipChildren();
                lastEnd = offset(p) + 1;
            }
            String colon = text.contains("\" : ") ? "\" : " : "\": ";
            if (lastEnd < 0) { // "providers": []
                String indent = lineIndent(text, arrayStart);
                return text.substring(0, arrayStart) + "[\n" + entry(config, indent + "  ", colon) + "\n" + indent + "]"
                        + text.substring(offset(p) + 1);
            }
            return text.substring(0, lastEnd) + ",\n" + entry(config, lineIndent(text, firstEntry), colon)
                    + text.substring(lastEnd);
        } catch (IOException e) {
            throw new IllegalStateException("providers file changed shape while being edited", e);
        }
    }

    /** A parser over the text standing on the {@code [} of its top-level {@code providers} array. */
    private static JsonParser atProviders(String text) throws IOException {
        JsonParser p = new JsonFactory().createParser(text);
        if (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (p.nextToken() == JsonToken.START_ARRAY && field.equals("providers")) {
                    return p;
                }
                p.skipChildren();
            }
        }
        p.close();
        throw new IllegalStateException("no \"providers\" array in the providers file text");
    }

    /**
     * One provider as an entry of the file, a field per line (the layout of {@code
     * providers-example.json}); the fields {@link ProvidersFile#write} writes (an endpoint
     * without prices), and {@link ProvidersFileEdit#writeAtomically} checks that the file reads back as intended.
     */
    private static String entry(ProviderConfig c, String indent, String colon) throws IOException {
        ObjectMapper json = Json.mapper();
        StringBuilder sb = new StringBuilder(indent).append("{\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = ProvidersFile.toJson(json, c).properties().iterator();
                it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            sb.append(indent).append("  \"").append(f.getKey()).append(colon)
                    .append(value(json, f.getValue())).append(it.hasNext() ? ",\n" : "\n");
        }
        return sb.append(indent).append('}').toString();
    }

    /** A value on one line: {@code "x"}, {@code ["a", "b"]}, {@code {"type": "litellm"}}. */
    private static String value(ObjectMapper json, JsonNode v) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (v.isArray()) {
            sb.append('[');
            for (JsonNode item : v) {
                sb.append(sb.length() > 1 ? ", " : "").append(json.writeValueAsString(item));
            }
            return sb.append(']').toString();
        }
        if (v.isObject()) {
            sb.append('{');
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                sb.append(sb.length() > 1 ? ", " : "").append(json.writeValueAsString(e.getKey())).append(": ")
                        .append(json.writeValueAsString(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return json.writeValueAsString(v);
    }

    /** The text with the {@code models} array of provider {@code name} replaced (or added). */
    static String withModels(String text, String name, List<String> models) {
        try (JsonParser p = atProviders(text)) {
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t == JsonToken.START_OBJECT) {
                    String out = editEntry(p, text, name, models);
                    if (out != null) {
                        return out;
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("providers file changed shape while being edited", e);
        }
        throw new IllegalStateException("provider '" + name + "' not found in the providers file text");
    }

    /** Walks one provider object; returns the edited text when it is the provider, else null. */
    private static String editEntry(JsonParser p, String text, String name, List<String> models) throws IOException {
        int objectStart = offset(p);
        String entryName = null;
        int modelsStart = -1;
        int modelsEnd = -1;
        int firstFieldStart = -1;
        int lastValueEnd;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            if (firstFieldStart < 0) {
                firstFieldStart = offset(p);
            }
            JsonToken value = p.nextToken();
            if (field.equals("name") && value == JsonToken.VALUE_STRING) {
                entryName = p.getText();
            }
            if (field.equals("models") && value == JsonToken.START_ARRAY) {
                modelsStart = offset(p);
            }
            p.skipChildren();
            if (field.equals("models") && value == JsonToken.START_ARRAY) {
                modelsEnd = offset(p) + 1;
            }
        }
        // the end of the last value: back from the closing brace over white space (a string
        // token's end is not known to the parser until it is read, so its location is not used)
        lastValueEnd = offset(p);
        while (lastValueEnd > objectStart && Character.isWhitespace(text.charAt(lastValueEnd - 1))) {
            lastValueEnd--;
        }
        if (!name.equals(entryName)) {
            return null;
        }
        ObjectMapper json = Json.mapper();
        if (modelsStart >= 0) {
            String old = text.substring(modelsStart, modelsEnd);
            return text.substring(0, modelsStart) + array(json, models, old, lineIndent(text, modelsStart))
                    + text.substring(modelsEnd);
        }
        // no models field yet: add it after the last field, in the entry's own layout
        String colon = text.contains("\" : ") ? "\" : " : "\": ";
        boolean multiline = text.substring(objectStart, lastValueEnd).contains("\n");
        String indent = lineIndent(text, firstFieldStart);
        String field = "\"models" + colon + array(json, models, "[]", indent);
        String insert = multiline ? ",\n" + indent + field : ", " + field;
        return text.substring(0, lastValueEnd) + insert + text.substring(lastValueEnd);
    }

    /** The new array, laid out like the old one: one line, or one id per line. */
    private static String array(ObjectMapper json, List<String> models, String old, String indent) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (old.contains("\n") && !models.isEmpty()) {
            String itemIndent = indent + "  ";
            int firstItem = old.indexOf('"');
            if (firstItem > 0) {
                itemIndent = lineIndent(old, firstItem);
            }
            sb.append("[\n");
            for (int i = 0; i < models.size(); i++) {
                sb.append(itemIndent).append(json.writeValueAsString(models.get(i)))
                        .append(i + 1 < models.size() ? ",\n" : "\n");
            }
            return sb.append(indent).append(']').toString();
        }
        boolean spaced = old.startsWith("[ ");
        if (models.isEmpty()) {
            return spaced ? "[ ]" : "[]";
        }
        sb.append(spaced ? "[ " : "[");
        for (int i = 0; i < models.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(json.writeValueAsString(models.get(i)));
        }
        return sb.append(spaced ? " ]" : "]").toString();
    }

    /** The leading white space of the line holding offset {@code at}. */
    private static String lineIndent(String text, int at) {
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        int end = lineStart;
        while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
            end++;
        }
        return text.substring(lineStart, end);
    }

    private static int offset(JsonParser p) {
        return (int) p.currentTokenLocation().getCharOffset();
    }
}
