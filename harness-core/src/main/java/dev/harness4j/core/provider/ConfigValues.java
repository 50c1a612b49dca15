package dev.harness4j.core.provider;

import java.net.URI;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How messages and logs show provider config values that could be a secret pasted in the wrong
 * place: never whole. A value that looks like a key shows as a masked prefix and its length; a
 * free-form value (an enum name, a URL's query) shows only when it is plainly a word.
 */
final class ConfigValues {
    /** Prefixes of keys issued by well-known providers (case-sensitive). */
    static final List<String> KEY_PREFIXES = List.of("sk-", "sk_", "gsk_", "AIza", "xai-", "ghp_", "gho_",
            "github_pat_", "glpat-", "hf_", "r8_", "pplx-", "nvapi-", "AKIA", "csk-", "fw_", "tgp_v1_");

    /** A value at least this long with high character entropy, mixed letters and digits, looks like a key: {@value}. */
    static final int RANDOM_KEY_MIN_LENGTH = 20;

    /** Bits of Shannon entropy per character from which a long value looks random: {@value}. */
    static final double RANDOM_BITS_PER_CHAR = 3.5;

    /** How many leading characters of a key-like value a message may show: {@value}. */
    static final int SHOWN_PREFIX = 4;

    private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z_-]{0,23}");

    private ConfigValues() {}

    /** Whether a value looks like an API key: a known key prefix, or long, mixed and random-looking. */
    static boolean looksLikeKey(String value) {
        if (value == null || value.length() < 8) {
            return false;
        }
        for (String prefix : KEY_PREFIXES) {
            if (value.startsWith(prefix) && value.length() >= prefix.length() + 8) {
                return true;
            }
        }
        if (value.length() < RANDOM_KEY_MIN_LENGTH) {
            return false;
        }
        // base62 keys mix all three; hex and lowercase keys have no '_' (variable names are mostly
        // upper case words joined by '_', which keeps them out of both)
        boolean lower = value.chars().anyMatch(Character::isLowerCase);
        boolean upper = value.chars().anyMatch(Character::isUpperCase);
        boolean digit = value.chars().anyMatch(Character::isDigit);
        boolean mixed = lower && upper && digit;
        boolean lowerRandom = lower && digit && value.indexOf('_') < 0 && value.length() >= 24;
        return (mixed || lowerRandom) && bitsPerChar(value) >= RANDOM_BITS_PER_CHAR;
    }

    /** An environment variable's name for a message: the name, or a masked form when it looks like a key. */
    static String envName(String name) {
        return looksLikeKey(name) ? masked(name) + " (a value that looks like a key, not a variable name)" : name;
    }

    /** A key-like value masked: its first {@value #SHOWN_PREFIX} characters and its length. */
    static String masked(String value) {
        int shown = Math.min(SHOWN_PREFIX, value.length() / 4);
        return value.substring(0, shown) + "\u2026 (" + value.length() + " characters)";
    }

    /**
     * A free-form config value (an enum name, a type) for a message, to follow the field's name
     * ({@code auth value 'bearr'}, {@code auth value (41 characters, not shown: it could be a
     * key)}): quoted when it is plainly a word (letters, '_' and '-', at most 24 characters, no key
     * prefix), else only its length.
     */
    static String shown(String value) {
        if (value == null) {
            return "null";
        }
        if (WORD.matcher(value).matches() && !looksLikeKey(value)) {
            return "'" + value + "'";
        }
        return "(" + value.length() + " characters, not shown: it could be a key)";
    }

    /**
     * A URL for a message without the parts that may carry a secret: user info, query and
     * fragment are replaced by their lengths.
     */
    static String url(URI url) {
        if (url.getRawUserInfo() == null && url.getRawQuery() == null && url.getRawFragment() == null) {
            return "'" + url + "'";
        }
        if (url.getScheme() == null || url.getRawAuthority() == null) {
            return "a URL of " + url.toString().length() + " characters (not shown: it has a query, fragment or"
                    + " user info that could hold a key)";
        }
        String host = url.getHost() == null ? "" : url.getHost();
        StringBuilder sb = new StringBuilder("'").append(url.getScheme()).append("://");
        if (url.getRawUserInfo() != null) {
            sb.append("<user info of ").append(url.getRawUserInfo().length()).append(" characters>@");
        }
        sb.append(host);
        if (url.getPort() >= 0) {
            sb.append(':').append(url.getPort());
        }
        sb.append(url.getRawPath() == null ? "" : url.getRawPath());
        if (url.getRawQuery() != null) {
            sb.append("?<query of ").append(url.getRawQuery().length()).append(" characters>");
        }
        if (url.getRawFragment() != null) {
            sb.append("#<fragment of ").append(url.getRawFragment().length()).append(" characters>");
        }
        return sb.append("'").toString();
    }

    private static double bitsPerChar(String s) {
        int[] counts = new int[128];
        int other = 0;
        for (char ch : s.toCharArray()) {
            if (ch < 128) {
                counts[ch]++;
            } else {
                other++;
            }
        }
        double bits = 0;
        for (int n : counts) {
            bits += term(n, s.length());
        }
        return bits + term(other, s.length());
    }

    private static double term(int n, int total) {
        if (n == 0) {
            return 0;
        }
        double p = (double) n / total;
        return -p * Math.log(p) / Math.log(2);
    }
}
