package dev.harness4j.postgres.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Pure functions on PostgreSQL JDBC URLs: the form safe to print, and whether one carries a password. */
public final class JdbcUrls {
    /** The URL prefix the PostgreSQL driver accepts. */
    public static final String PREFIX = "jdbc:postgresql:";

    private JdbcUrls() {}

    /**
     * The URL without credentials: no {@code user:password@} part and no {@code password} (or
     * {@code sslpassword}) parameter; what error messages and logs may print.
     */
    public static String redact(String url) {
        if (url == null) {
            return "(no URL)";
        }
        String base = url;
        String query = null;
        int q = url.indexOf('?');
        if (q >= 0) {
            base = url.substring(0, q);
            query = url.substring(q + 1);
        }
        int slashes = base.indexOf("//");
        if (slashes >= 0) {
            int at = base.indexOf('@', slashes + 2);
            int path = base.indexOf('/', slashes + 2);
            if (at >= 0 && (path < 0 || at < path)) {
                base = base.substring(0, slashes + 2) + base.substring(at + 1);
            }
        }
        if (query == null) {
            return base;
        }
        List<String> kept = new ArrayList<>();
        for (String p : query.split("&")) {
            if (!isSecretParameter(p)) {
                kept.add(p);
            }
        }
        return kept.isEmpty() ? base : base + "?" + String.join("&", kept);
    }

    /** Whether the URL carries a password (a {@code password} parameter or {@code user:password@}). */
    public static boolean carriesPassword(String url) {
        return !redact(url).equals(stripUserOnly(url));
    }

    private static String stripUserOnly(String url) {
        // a user name alone (user@host) is not a secret: compare against the URL with it removed
        int slashes = url.indexOf("//");
        int q = url.indexOf('?');
        String base = q >= 0 ? url.substring(0, q) : url;
        if (slashes >= 0) {
            int at = base.indexOf('@', slashes + 2);
            int path = base.indexOf('/', slashes + 2);
            if (at >= 0 && (path < 0 || at < path) && base.substring(slashes + 2, at).indexOf(':') < 0) {
                url = url.substring(0, slashes + 2) + url.substring(at + 1);
            }
        }
        return url;
    }

    private static boolean isSecretParameter(String p) {
        int eq = p.indexOf('=');
        String name = (eq < 0 ? p : p.substring(0, eq)).toLowerCase(Locale.ROOT);
        return name.equals("password") || name.equals("sslpassword");
    }
}
