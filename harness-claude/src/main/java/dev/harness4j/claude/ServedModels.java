package dev.harness4j.claude;

import dev.harness4j.api.ServedModel;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Judges whether the models that answered (see {@link AnsweringModels}) are the model the run
 * asked for. Pure functions.
 *
 * <p>Rules: a context suffix such as {@code [1m]} is ignored on both sides; an alias ({@code
 * haiku}, {@code sonnet}, {@code opus}, {@code fable}) matches any id of that family (one whose
 * dash-separated parts include the family name, e.g. {@code claude-haiku-5-5} or {@code
 * claude-3-5-haiku-20241022}); any other requested id, including every model id of a custom
 * endpoint, matches only itself, compared exactly. No answering model means {@code unmeasured},
 * never a match.
 */
final class ServedModels {
    /** The model aliases Claude Code accepts for "the latest model of this family". */
    static final Set<String> ALIASES = Set.of("haiku", "sonnet", "opus", "fable");

    private ServedModels() {}

    static ServedModel verdict(String requested, List<String> answered) {
        if (answered.isEmpty()) {
            return ServedModel.unmeasured(requested);
        }
        String want = stripContextSuffix(requested);
        boolean alias = ALIASES.contains(want.toLowerCase(Locale.ROOT));
        boolean all = answered.stream().map(ServedModels::stripContextSuffix)
                .allMatch(got -> alias ? ofFamily(got, want.toLowerCase(Locale.ROOT)) : got.equals(want));
        return new ServedModel(requested, answered, all ? ServedModel.Verdict.MATCH : ServedModel.Verdict.MISMATCH);
    }

    /** {@code claude-sonnet-4-5[1m]} → {@code claude-sonnet-4-5}. */
    static String stripContextSuffix(String id) {
        String s = id.trim();
        if (s.endsWith("]")) {
            int open = s.lastIndexOf('[');
            if (open > 0) {
                return s.substring(0, open).trim();
            }
        }
        return s;
    }

    private static boolean ofFamily(String id, String family) {
        return Arrays.asList(id.toLowerCase(Locale.ROOT).split("[-_./:]")).contains(family);
    }
}
