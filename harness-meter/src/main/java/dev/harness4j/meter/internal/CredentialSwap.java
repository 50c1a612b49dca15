package dev.harness4j.meter.internal;

import com.sun.net.httpserver.Headers;
import dev.harness4j.api.Secret;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One run's credential on the meter: the agent is given a random per-run token in place of the
 * provider's key, and the meter puts the real key back in every place a key travels ({@code
 * x-api-key}, {@code api-key}, {@code x-goog-api-key}, {@code Authorization: Bearer}, the {@code
 * key} query parameter) on the way upstream. A keyless provider gets no token: its requests go
 * on as they came. Immutable; never shows either value.
 */
final class CredentialSwap {
    /** The request headers a key travels in (lower case). */
    static final Set<String> HEADERS = Set.of("x-api-key", "api-key", "x-goog-api-key", "authorization");
    private static final String TOKEN_PREFIX = "h4j-run-";

    /** The swap of a keyless provider: nothing to check, nothing to swap. */
    static final CredentialSwap KEYLESS = new CredentialSwap(null, null);

    private final String token;
    private final String real;

    private CredentialSwap(String token, String real) {
        this.token = token;
        this.real = real;
    }

    /** A fresh token for {@code real}, or {@link #KEYLESS} when there is no key. */
    static CredentialSwap of(Secret real, SecureRandom random) {
        if (real == null) {
            return KEYLESS;
        }
        byte[] b = new byte[20];
        random.nextBytes(b);
        return new CredentialSwap(TOKEN_PREFIX + HexFormat.of().formatHex(b), real.reveal());
    }

    /** The token the agent gets, or {@code null} for a keyless provider. */
    Secret token() {
        return token == null ? null : Secret.of(token);
    }

    /** Whether the provider has a key to swap in. */
    boolean keyed() {
        return token != null;
    }

    /**
     * Whether every key header of a request holds this run's token (true for a keyless provider,
     * and for a request with no key header, or only empty ones: it goes upstream without a key).
     * The query's {@code key} is checked by {@link #query}.
     */
    boolean acceptsHeaders(Headers headers) {
        if (token == null) {
            return true;
        }
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (HEADERS.contains(e.getKey().toLowerCase(Locale.ROOT))) {
                for (String v : e.getValue()) {
                    if (!blank(v) && !v.contains(token)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Whether a key header's value holds no key (empty, or a bare {@code Bearer}). */
    private static boolean blank(String v) {
        String s = v == null ? "" : v.strip();
        return s.isEmpty() || s.equalsIgnoreCase("bearer");
    }

    /** A key header's value with the token replaced by the real key (unchanged for a keyless provider). */
    String header(String value) {
        if (token == null) {
            return value;
        }
        int i = value.indexOf(token);
        return i < 0 ? value : value.substring(0, i) + real + value.substring(i + token.length());
    }

    /**
     * The raw query with a {@code key} parameter holding the token given the real key instead;
     * {@code null} when a {@code key} parameter holds anything else. Unchanged for a keyless
     * provider or a query without a {@code key}.
     */
    String query(String rawQuery) {
        if (token == null || rawQuery == null || !(rawQuery.startsWith("key=") || rawQuery.contains("&key="))) {
            return rawQuery;
        }
        StringBuilder out = new StringBuilder(rawQuery.length() + real.length());
        for (String part : rawQuery.split("&", -1)) {
            if (out.length() > 0) {
                out.append('&');
            }
            if (!part.startsWith("key=")) {
                out.append(part);
                continue;
            }
            String presented;
            try {
                presented = URLDecoder.decode(part.substring("key=".length()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null; // not even a well-formed value: not the token
            }
            if (!presented.equals(token)) {
                return null;
            }
            out.append("key=").append(URLEncoder.encode(real, StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** Whether a request carries a key at all (a key header, or a {@code key} query parameter). */
    static boolean carriesKey(Headers headers, String rawQuery) {
        for (String name : headers.keySet()) {
            if (HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return rawQuery != null && (rawQuery.startsWith("key=") || rawQuery.contains("&key="));
    }

    /** What the meter answers (401) to a key that is not a live run's token. */
    static final String NOT_LIVE = "the credential is not a live harness4j run's token (a run's token works only on "
            + "its own meter path, and only while the run is live)";
}
