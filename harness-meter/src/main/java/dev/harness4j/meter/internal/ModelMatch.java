package dev.harness4j.meter.internal;

import dev.harness4j.api.ServedModel;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One set of rules, for every harness, for whether the models that answered are the model a run
 * asked for. Pure functions.
 *
 * <p>Both ids are normalised first: a provider prefix ({@code openai/}, {@code anthropic/},
 * {@code ollama/}, Gemini's {@code models/}, ...) is dropped, a context suffix such as {@code [1m]} is dropped, a date
 * suffix ({@code -20251001}, {@code -2025-10-01}) is dropped, and case is ignored. An alias
 * ({@code haiku}, {@code sonnet}, {@code opus}, {@code fable}) then matches any id of that family
 * (one whose dash-separated parts include the family name, e.g. {@code claude-haiku-4-5}); any
 * other id matches only itself. No answering model means {@code unmeasured}, never a match.
 * (The rules of harness-claude's {@code ServedModels}, plus the date and provider-prefix rules.)
 */
public final class ModelMatch {
    /** Model aliases that stand for "the latest model of this family". */
    public static final Set<String> ALIASES = Set.of("haiku", "sonnet", "opus", "fable");

    /** Provider prefixes routers and CLIs put before a model id. */
    static final Set<String> PROVIDER_PREFIXES = Set.of("openai", "anthropic", "ollama", "openrouter", "litellm",
            "azure", "bedrock", "vertex_ai", "gemini", "google", "models");

    private static final Pattern DATE_SUFFIX = Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2})$");

    private ModelMatch() {}

    /**
     * The verdict for a run that asked for {@code requested} and was answered by {@code answered}.
     *
     * @param requested the model the run asked for
     * @param answered the answering model ids, in order of first appearance
     * @return match, mismatch, or unmeasured when nothing answered
     */
    public static ServedModel verdict(String requested, List<String> answered) {
        if (answered.isEmpty()) {
            return ServedModel.unmeasured(requested);
        }
        boolean all = answered.stream().allMatch(got -> matches(requested, got));
        return new ServedModel(requested, answered, all ? ServedModel.Verdict.MATCH : ServedModel.Verdict.MISMATCH);
    }

    /** Whether one answering id is the requested model by the rules above. */
    static boolean matches(String requested, String answered) {
        String want = normalise(requested);
        String got = normalise(answered);
        if (ALIASES.contains(want)) {
            return Arrays.asList(got.split("[-_./:]")).contains(want);
        }
        return got.equals(want);
    }

    /** {@code openai/claude-haiku-4-5-20251001[1m]} → {@code claude-haiku-4-5}. */
    static String normalise(String id) {
        String s = id.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("]")) {
            int open = s.lastIndexOf('[');
            if (open > 0) {
                s = s.substring(0, open).trim();
            }
        }
        int slash = s.indexOf('/');
        if (slash > 0 && PROVIDER_PREFIXES.contains(s.substring(0, slash))) {
            s = s.substring(slash + 1);
        }
        return DATE_SUFFIX.matcher(s).replaceFirst("");
    }
}
