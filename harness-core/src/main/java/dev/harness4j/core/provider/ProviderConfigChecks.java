package dev.harness4j.core.provider;

import dev.harness4j.api.ApiStyle;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of a {@link ProviderConfig}'s values, for its constructor and its builder's setters:
 * names, environment variable names, http(s) URLs, the fields an endpoint or a CLI login takes.
 * A message never repeats a value that may be a key pasted in the wrong place.
 */
final class ProviderConfigChecks {
    private static final Logger log = LoggerFactory.getLogger(ProviderConfig.class);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ProviderConfigChecks() {}

    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("provider name " + ConfigValues.shown(name) + " must match [A-Za-z0-9._-]+");
        }
    }

    /** An endpoint serves an API style; the CLI's own login (no base URL) takes no endpoint fields. */
    static void checkShape(String name, Set<ApiStyle> apiStyles, URI baseUrl, String keyEnv,
            ProviderConfig.Gateway gateway, String healthPath) {
        if (baseUrl == null) { // the CLI's own login
            if (!apiStyles.isEmpty() || keyEnv != null || gateway != null || healthPath != null) {
                throw new IllegalArgumentException("provider '" + name + "' is the CLI's own login (no base_url), so "
                        + "it takes no api_styles, key_env, gateway or health_path; give it a base_url to make it an "
                        + "endpoint, or drop those fields");
            }
        } else if (apiStyles.isEmpty()) {
            throw new IllegalArgumentException("provider '" + name + "' must serve at least one API style "
                    + Arrays.toString(ApiStyle.values()));
        }
    }

    /** The model ids without duplicates, in the given order. */
    static List<String> uniqueModels(String name, List<String> models) {
        LinkedHashSet<String> unique = new LinkedHashSet<>();
        for (String m : models) {
            if (m == null || m.isBlank()) {
                throw new IllegalArgumentException("provider '" + name + "' lists a blank model id in models[]");
            }
            unique.add(m);
        }
        return List.copyOf(unique);
    }

    static void checkHealthPath(String name, String healthPath) {
        if (healthPath != null && !healthPath.startsWith("/")) {
            throw new IllegalArgumentException("health_path '" + healthPath + "' of provider '" + name
                    + "' must start with '/' (it is relative to the endpoint root, e.g. /health/readiness)");
        }
    }

    /** Warns (once per config built) when a variable name looks like a key pasted in its place. */
    static void warnIfKeyLike(String provider, String field, String value) {
        if (ConfigValues.looksLikeKey(value)) {
            log.warn("{} of provider '{}' is {}, which looks like a key, not the name of an environment variable;"
                    + " put the key in a variable and name that variable in {}", field, provider,
                    ConfigValues.masked(value), field);
        }
    }

    static void checkEnvName(String provider, String field, String value) {
        if (!ENV_NAME.matcher(value).matches()) {
            // never echo the value: a key pasted here by mistake must not reach a message or log
            throw new IllegalArgumentException(field + " of provider '" + provider
                    + "' must be the NAME of an environment variable ([A-Za-z_][A-Za-z0-9_]*), never a key;"
                    + " got a value of " + value.length() + " characters that is not a variable name");
        }
    }

    static void checkHttpUrl(String provider, URI url) {
        String scheme = url.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                || url.getHost() == null || url.getRawQuery() != null || url.getRawFragment() != null
                || url.getRawUserInfo() != null) {
            // the URL is shown without user info, query and fragment: a key pasted there must not reach a message
            throw new IllegalArgumentException("base_url " + ConfigValues.url(url) + " of provider '" + provider
                    + "' is not an http(s) URL with a host and without user info, query or fragment; write it like"
                    + " http://127.0.0.1:11434 or https://api.anthropic.com (a key goes in the variable key_env"
                    + " names, never in the URL)");
        }
    }

    /** Parses a base URL, failing with the provider's name and an example of a good one. */
    static URI parseUrl(String provider, String value) {
        Objects.requireNonNull(value, "baseUrl");
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            // the value is shown only without a query, fragment or user info and when it does not look
            // like a key; the URISyntaxException (whose message quotes it) is not chained
            boolean showable = value.indexOf('?') < 0 && value.indexOf('#') < 0 && value.indexOf('@') < 0
                    && !ConfigValues.looksLikeKey(value);
            throw new IllegalArgumentException("base_url " + (showable ? "'" + value + "' " : "")
                    + "of provider '" + provider + "' is not a URL (" + e.getReason()
                    + (e.getIndex() >= 0 ? " at index " + e.getIndex() : "")
                    + (showable ? "" : " of a value of " + value.length() + " characters, not shown")
                    + "); write it like http://127.0.0.1:11434");
        }
        checkHttpUrl(provider, uri);
        return uri;
    }
}
