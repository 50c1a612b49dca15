package dev.harness4j.core.provider;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.internal.util.FileLocks;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Edits a providers file under a lock that any number of threads and processes share: adds one
 * provider ({@link #add}, what {@code harness4j providers add} does) or changes one provider's
 * {@code models} ({@link Providers#refresh}); and the atomic write both this and {@link
 * ProvidersFile#write} use.
 *
 * <pre>{@code
 * ProvidersFileEdit.add(ProvidersFile.in(stateDir), ProviderConfig.builder("anthropic")
 *         .apiStyles(ApiStyle.ANTHROPIC).baseUrl("https://api.anthropic.com")
 *         .key("ANTHROPIC_API_KEY", AuthScheme.API_KEY).build());
 * }</pre>
 *
 * <p>The edit is made in the file's text: the new entry is put after the last one, or the {@code
 * models} array's characters are replaced (or the field added when the entry has none), so field
 * order, omitted defaults, formatting and the other providers stay byte for byte. The write goes to a temp file beside the real file (a
 * symlink is followed to its target, which is what gets replaced), with the old file's POSIX
 * permissions, then renamed over it.
 *
 * <p>The lock is an exclusive OS file lock on {@code <real file>.lock} around the
 * read-modify-write, taken inside one JVM under a JVM-wide striped lock, as {@code
 * core.queue.FileQueueStore} does (OS file locks belong to the whole JVM). The lock file is never
 * deleted (see FileQueueStore for why).
 */
public final class ProvidersFileEdit {
    /** How long a refresh waits for another writer's lock on the providers file: 10 s. */
    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** The suffix of the lock file beside the providers file: {@value}. */
    static final String LOCK_SUFFIX = ".lock";


    private ProvidersFileEdit() {}

    /**
     * Sets the {@code models} of provider {@code name} in {@code file}, under the file's lock.
     *
     * @return whether the provider was in the file (when not, nothing was written)
     * @throws ProviderConfigException when the file is unreadable or invalid, the lock stays
     *     taken for {@link #LOCK_TIMEOUT}, or the write fails
     */
    static boolean replaceModels(Path file, String name, List<String> models) {
        Path target = realTarget(file);
        return locked(target, () -> {
            List<ProviderConfig> before = ProvidersFile.read(target); // validates, names the file on failure
            if (before.stream().noneMatch(c -> c.name().equals(name))) {
                return false;
            }
            String text;
            try {
                text = Files.readString(target, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ProviderConfigException(file, "could not read provider config " + target + ": " + e, e);
            }
            String edited = withModels(text, name, models);
            List<ProviderConfig> expected = before.stream()
                    .map(c -> c.name().equals(name) ? c.withModels(models) : c).toList();
            writeAtomically(target, edited.getBytes(StandardCharsets.UTF_8), expected);
            return true;
        });
    }

    /**
     * Adds provider {@code config} to {@code file} under the file's lock, after the providers
     * already there (which stay byte for byte); a missing file is created. A provider with {@code
     * prices} or the CLI's own login is not taken: write those in the file by hand.
     *
     * @throws ProviderConfigException when the file is unreadable or invalid, already has a
     *     provider of that name, the lock stays taken for {@link #LOCK_TIMEOUT}, or the write fails;
     *     nothing was written then
     * @throws IllegalArgumentException for a provider with prices or the CLI's own login
     */
    public static void add(Path file, ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        if (config.cliLogin() || !config.prices().isEmpty()) {
            throw new IllegalArgumentException("provider '" + config.name() + "': only an endpoint without prices can"
                    + " be added this way; write a CLI-login provider or prices in the providers file itself");
        }
        Path target = realTarget(file);
        try {
            Files.createDirectories(target.getParent()); // the lock file's directory
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not create the directory of " + target + ": " + e, e);
        }
        locked(target, () -> {
            if (!Files.exists(target)) {
                ProvidersFile.write(target, List.of(config));
                return null;
            }
            List<ProviderConfig> before = ProvidersFile.read(target); // validates, names the file on failure
            if (before.stream().anyMatch(c -> c.name().equals(config.name()))) {
                throw new ProviderConfigException(file, "provider config " + target + " already has a provider '"
                        + config.name() + "'; nothing was written. Choose another name, or change or remove that"
                        + " entry in the file");
            }
            String text;
            try {
                text = Files.readString(target, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ProviderConfigException(file, "could not read provider config " + target + ": " + e, e);
            }
            List<ProviderConfig> expected = new ArrayList<>(before);
            expected.add(config);
            writeAtomically(target, withEntry(text, config).getBytes(StandardCharsets.UTF_8), expected);
            return null;
        });
    }

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
     * providers-example.json}); the fields {@link ProvidersFile#write} writes for an endpoint
     * without prices, and {@link #writeAtomically} checks that the file reads back as intended.
     */
    private static String entry(ProviderConfig c, String indent, String colon) throws IOException {
        ObjectMapper json = Json.mapper();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", c.name());
        fields.put("api_styles", c.apiStyles().stream().sorted().map(s -> s.name().toLowerCase(Locale.ROOT))
                .toList());
        fields.put("base_url", c.baseUrl().toString());
        if (c.keyEnv() != null) {
            fields.put("key_env", c.keyEnv());
            fields.put("auth", c.auth().name().toLowerCase(Locale.ROOT));
            if (!c.keyRequired()) {
                fields.put("key_required", false);
            }
        }
        fields.put("models", c.models());
        if (c.defaultModel() != null) {
            fields.put("default_model", c.defaultModel());
        }
        if (c.healthPath() != null) {
            fields.put("health_path", c.healthPath());
        }
        if (c.gateway() != null) {
            Map<String, String> g = new LinkedHashMap<>();
            g.put("type", c.gateway().type().wireName());
            g.put("admin_key_env", c.gateway().adminKeyEnv());
            fields.put("gateway", g);
        }
        StringBuilder sb = new StringBuilder(indent).append("{\n");
        int i = 0;
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            sb.append(indent).append("  \"").append(f.getKey()).append(colon)
                    .append(value(json, f.getValue())).append(++i < fields.size() ? ",\n" : "\n");
        }
        return sb.append(indent).append('}').toString();
    }

    /** A value on one line: {@code "x"}, {@code ["a", "b"]}, {@code {"type": "litellm"}}. */
    private static String value(ObjectMapper json, Object v) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (v instanceof List<?> list) {
            sb.append('[');
            for (Object item : list) {
                sb.append(sb.length() > 1 ? ", " : "").append(json.writeValueAsString(item));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Map<?, ?> map) {
            sb.append('{');
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(sb.length() > 1 ? ", " : "").append(json.writeValueAsString(e.getKey())).append(": ")
                        .append(json.writeValueAsString(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return json.writeValueAsString(v);
    }

    /** The file a path names: a symlink's final target (the file replaced by a write), else the path. */
    static Path realTarget(Path file) {
        try {
            return Files.exists(file) ? file.toRealPath() : file.toAbsolutePath();
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not resolve provider config " + file + ": " + e, e);
        }
    }

    /**
     * Writes bytes to {@code target} atomically: a temp file in the same directory with the old
     * file's permissions, forced to disk, renamed over it. With {@code expected}, the temp file
     * must read back as exactly those providers first.
     */
    static void writeAtomically(Path target, byte[] bytes, List<ProviderConfig> expected) {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, target.getFileName().toString() + ".", ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            keepPermissions(target, tmp);
            if (expected != null && !ProvidersFile.read(tmp).equals(expected)) {
                throw new IllegalStateException("the edited providers file does not read back as intended");
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (IOException e) {
            throw new ProviderConfigException(target, "could not write provider config " + target + ": " + e, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: the temp file has a unique name and holds no secret
                }
            }
        }
    }

    private static void keepPermissions(Path old, Path tmp) throws IOException {
        if (!Files.exists(old)) {
            return;
        }
        PosixFileAttributeView from = Files.getFileAttributeView(old, PosixFileAttributeView.class);
        PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (from != null && to != null) {
            Set<PosixFilePermission> mode = from.readAttributes().permissions();
            to.setPermissions(mode);
        }
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

    private static <T> T locked(Path target, Supplier<T> body) {
        Path lock = target.resolveSibling(target.getFileName() + LOCK_SUFFIX);
        try {
            return FileLocks.withLock(lock, LOCK_TIMEOUT, () -> lockTimeout(target, lock), body::get);
        } catch (IOException e) {
            throw new ProviderConfigException(target, "could not lock provider config " + lock + ": " + e, e);
        }
    }

    private static ProviderConfigException lockTimeout(Path target, Path lock) {
        return new ProviderConfigException(target, "provider config " + target + " stayed locked by another writer"
                + " for more than " + LOCK_TIMEOUT.toMillis() + " ms (is a refresh stuck? its lock file is " + lock
                + "); nothing was written");
    }
}
