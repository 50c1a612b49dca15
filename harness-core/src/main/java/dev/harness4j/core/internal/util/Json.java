package dev.harness4j.core.internal.util;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.harness4j.api.Secret;
import java.io.IOException;

/**
 * The one place core makes its Jackson {@link ObjectMapper}s, so every JSON file and event core
 * writes shares the same rules, first of all: a {@link Secret} is written as {@code "***"}.
 *
 * <pre>{@code
 * ObjectMapper mapper = Json.mapper();     // a new, configured instance: keep it and reuse it
 * mapper.writeValueAsString(resolvedProvider);   // ..."secret":"***"...
 * }</pre>
 *
 * <p>Each call returns a new mapper (no shared mutable state); an {@link ObjectMapper} is
 * thread-safe once configured, so callers keep theirs in a field.
 */
public final class Json {

    private Json() {}

    /** A new mapper with {@link #secretsModule()} registered. */
    public static ObjectMapper mapper() {
        return new ObjectMapper().registerModule(secretsModule());
    }

    /** A module that serialises every {@link Secret} as {@value Secret#REDACTED}, never its value. */
    public static Module secretsModule() {
        SimpleModule module = new SimpleModule("harness4j-secrets");
        module.addSerializer(Secret.class, new RedactingSecretSerializer());
        return module;
    }

    /** Writes {@value Secret#REDACTED} in place of a secret's value. */
    private static final class RedactingSecretSerializer extends StdSerializer<Secret> {
        private static final long serialVersionUID = 1L;

        RedactingSecretSerializer() {
            super(Secret.class);
        }

        @Override
        public void serialize(Secret value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(Secret.REDACTED);
        }
    }
}
