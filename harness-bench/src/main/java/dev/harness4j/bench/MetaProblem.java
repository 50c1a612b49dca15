package dev.harness4j.bench;

import java.util.Locale;
import java.util.Objects;

/**
 * A result directory whose {@code meta.json} could not be used: listed in the summary, never fatal.
 *
 * @param dir the result directory's name
 * @param kind what is wrong
 * @param detail the parser's or reader's words
 */
public record MetaProblem(String dir, Kind kind, String detail) {

    /** What is wrong with a result's meta file. */
    public enum Kind {
        /** The directory has no {@code meta.json} (a run that never finished writing?). */
        MISSING,
        /** The file cannot be read or is not JSON. */
        UNREADABLE,
        /** It is JSON but lacks what a row needs (harness, outcome) or has another schema version. */
        PARTIAL;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public MetaProblem {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }
}
