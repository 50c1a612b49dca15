package dev.harness4j.aider;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aider-specific options a {@link dev.harness4j.api.RunSpec} may set, validated.
 *
 * <pre>{@code
 * RunSpec.builder("aider", "gateway").option(AiderOptions.EDIT_FORMAT, "diff")
 *         .option(AiderOptions.AUTO_COMMITS, "false")...
 * }</pre>
 *
 * @param editFormat how the model writes edits: {@code whole} (default), {@code diff} or {@code
 *     udiff}
 * @param autoCommits whether aider commits each edit (default {@code true}); off, the edits stay
 *     uncommitted in the working tree
 * @param stream whether aider streams the reply (default {@code true}, so the live tail sees it
 *     as it comes); aider's {@code Tokens:} line then holds its own tokenizer's estimate, while
 *     {@code false} makes it print the endpoint's reported usage
 */
public record AiderOptions(String editFormat, boolean autoCommits, boolean stream) {

    /** Option key: the edit format ({@code whole}, {@code diff}, {@code udiff}). */
    public static final String EDIT_FORMAT = "edit-format";
    /** Option key: {@code true} or {@code false}, whether aider commits its edits. */
    public static final String AUTO_COMMITS = "auto-commits";
    /** Option key: {@code true} or {@code false}, whether aider streams the model's reply. */
    public static final String STREAM = "stream";

    /** The edit formats this adapter passes to aider. */
    public static final List<String> EDIT_FORMATS = List.of("whole", "diff", "udiff");

    /** Whole-file edits, auto-commits on, streaming on. */
    public static final AiderOptions DEFAULTS = new AiderOptions("whole", true, true);

    private static final Logger LOG = LoggerFactory.getLogger(AiderOptions.class);
    private static final Set<String> KNOWN = Set.of(EDIT_FORMAT, AUTO_COMMITS, STREAM);

    public AiderOptions {
        Objects.requireNonNull(editFormat, "editFormat");
        if (!EDIT_FORMATS.contains(editFormat)) {
            throw new IllegalArgumentException("editFormat must be one of " + EDIT_FORMATS + ", was " + editFormat);
        }
    }

    /**
     * Reads the options of a run.
     *
     * <p>Keys this adapter does not know are ignored with a warning.
     *
     * @throws HarnessException naming the option, the value and the allowed values, when a
     *     value is invalid (before anything starts)
     */
    public static AiderOptions from(HarnessContext context) {
        return from(context.options());
    }

    /** Reads options from a run spec's option map; see {@link #from(HarnessContext)}. */
    public static AiderOptions from(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!KNOWN.contains(key)) {
                // Not an error: one spec's options may serve several harnesses in a bench matrix.
                LOG.warn("aider: ignoring unknown option '{}'; aider's options are {}", key, new TreeSet<>(KNOWN));
            }
        }
        String format = options.getOrDefault(EDIT_FORMAT, DEFAULTS.editFormat()).trim().toLowerCase(Locale.ROOT);
        if (!EDIT_FORMATS.contains(format)) {
            throw new HarnessException("aider: option " + EDIT_FORMAT + "='" + options.get(EDIT_FORMAT)
                    + "' is not supported; use one of " + EDIT_FORMATS);
        }
        return new AiderOptions(format,
                bool(options, AUTO_COMMITS, DEFAULTS.autoCommits()),
                bool(options, STREAM, DEFAULTS.stream()));
    }

    private static boolean bool(Map<String, String> options, String key, boolean fallback) {
        String v = options.get(key);
        if (v == null) {
            return fallback;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new HarnessException("aider: option " + key + "='" + v
                    + "' is not a boolean; use true or false");
        };
    }
}
