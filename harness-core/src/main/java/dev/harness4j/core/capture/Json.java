package dev.harness4j.core.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.harness4j.api.Secret;

/** The JSON settings harness4j writes with; a {@link Secret} always serialises as {@code "***"}. */
public final class Json {
    private Json() {}

    /** A new mapper: {@link Secret} as {@code "***"}, ISO dates as text, no failure on empty beans. */
    public static ObjectMapper newMapper() {
        SimpleModule secrets = new SimpleModule("harness4j-secrets");
        secrets.addSerializer(Secret.class, ToStringSerializer.instance);
        return new ObjectMapper()
                .registerModule(secrets)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }
}
