package dev.harness4j.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Reads the fields a {@link ResultRow} needs from one {@code meta.json} with Jackson's streaming
 * parser straight into a holder (no tree, no map: a summary reads thousands of these). Unknown
 * fields and values that are not needed are skipped. Thread-safe (the factory is).
 */
final class MetaReader {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** The fields read; {@code null} when absent, JSON null, or of another type. */
    static final class Meta {
        Long schemaVersion;
        String schemaVersionText;
        String harness;
        String provider;
        String model;
        String resolvedModel;
        String task;
        String outcome;
        String reason;
        Long durationMs;
        Long filesChanged;
        Long insertions;
        Long deletions;
        Long tokensIn;
        Long tokensOut;
        String tokenSource;
        BigDecimal costUsd;
        String costSource;
        String verdict;
        boolean branchPresent;
        boolean branchPushed;
        String branchName;
        String branchError;
        Long trial;
        String verifyStatus;
        Double reward;
        /** {@code verify.rewards}: the named metrics, in order; {@code null} when absent. */
        java.util.Map<String, Double> rewards;
    }

    private MetaReader() {}

    static Meta read(byte[] json) throws IOException {
        Meta m = new Meta();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                switch (name) {
                    case "schema_version" -> {
                        m.schemaVersion = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                        m.schemaVersionText = v.isScalarValue() ? p.getText() : v.toString();
                    }
                    case "harness" -> m.harness = text(p, v);
                    case "provider" -> m.provider = text(p, v);
                    case "model" -> m.model = text(p, v);
                    case "resolved_model" -> m.resolvedModel = text(p, v);
                    case "task" -> m.task = text(p, v);
                    case "trial" -> m.trial = number(p, v);
                    case "verify" -> object(p, v, (f, t) -> {
                        switch (f) {
                            case "status" -> m.verifyStatus = text(p, t);
                            case "reward" -> m.reward = t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT
                                    ? p.getDoubleValue() : null;
                            case "rewards" -> m.rewards = numbers(p, t);
                            default -> p.skipChildren();
                        }
                    });
                    case "outcome" -> m.outcome = text(p, v);
                    case "reason" -> m.reason = text(p, v);
                    case "duration_ms" -> m.durationMs = number(p, v);
                    case "changes" -> object(p, v, (f, t) -> {
                        switch (f) {
                            case "files_changed" -> m.filesChanged = number(p, t);
                            case "insertions" -> m.insertions = number(p, t);
                            case "deletions" -> m.deletions = number(p, t);
                            default -> p.skipChildren();
                        }
                    });
                    case "tokens" -> object(p, v, (f, t) -> {
                        switch (f) {
                            case "input" -> m.tokensIn = number(p, t);
                            case "output" -> m.tokensOut = number(p, t);
                            case "source" -> m.tokenSource = text(p, t);
                            default -> p.skipChildren();
                        }
                    });
                    case "cost" -> object(p, v, (f, t) -> {
                        switch (f) {
                            case "usd" -> m.costUsd = t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT
                                    ? p.getDecimalValue() : null;
                            case "source" -> m.costSource = text(p, t);
                            default -> p.skipChildren();
                        }
                    });
                    case "served_model" -> object(p, v, (f, t) -> {
                        if (f.equals("verdict")) {
                            m.verdict = text(p, t);
                        } else {
                            p.skipChildren();
                        }
                    });
                    case "branch" -> {
                        m.branchPresent = v == JsonToken.START_OBJECT;
                        object(p, v, (f, t) -> {
                            switch (f) {
                                case "pushed" -> m.branchPushed = t == JsonToken.VALUE_TRUE;
                                case "name" -> m.branchName = text(p, t);
                                case "error" -> m.branchError = text(p, t);
                                default -> p.skipChildren();
                            }
                        });
                    }
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new IOException("malformed object");
            }
            if (p.nextToken() != null) {
                throw new IOException("trailing content after the JSON object");
            }
        }
        return m;
    }

    private interface Field {
        void read(String name, JsonToken value) throws IOException;
    }

    /** Reads a nested object's fields one level deep; anything but an object is skipped. */
    private static void object(JsonParser p, JsonToken v, Field field) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            field.read(name, p.nextToken());
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new IOException("malformed object");
        }
    }

    /** An object's numeric fields, in order (others skipped); {@code null} for anything but an object. */
    private static java.util.Map<String, Double> numbers(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        java.util.Map<String, Double> out = new java.util.LinkedHashMap<>();
        object(p, v, (f, t) -> {
            if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
                out.put(f, p.getDoubleValue());
            } else {
                p.skipChildren();
            }
        });
        return out;
    }

    private static String text(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        return v == JsonToken.VALUE_NULL ? null : p.getText();
    }

    private static Long number(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (v == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getDecimalValue().longValue();
        }
        p.skipChildren();
        return null;
    }
}
