package dev.harness4j.core.provider;

import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.Secret;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The keys of {@link Providers}, read from the environment each time one is needed, never
 * stored: a resolution's key, a probe's key, a gateway's admin key. A message names the
 * variable, never a value. Thread-safe when the environment is.
 */
final class ProviderKeys {
    private final Supplier<Map<String, String>> environment;

    ProviderKeys(Supplier<Map<String, String>> environment) {
        this.environment = environment;
    }

    /**
     * The key for a resolution: absent only when none is configured or it is optional.
     *
     * @param where where the provider is configured, for the message ({@code " in <file>"})
     * @throws ProviderNotResolvableException when a required key's variable is not set
     */
    Secret forRun(ProviderConfig c, Supplier<String> where) {
        if (c.keyEnv() == null) {
            return null;
        }
        String value = environment.get().get(c.keyEnv());
        if (value != null && !value.isEmpty()) {
            return Secret.of(value);
        }
        if (!c.keyRequired()) {
            return null;
        }
        if (ConfigValues.looksLikeKey(c.keyEnv())) {
            // the "name" is a key pasted in its place: never repeat it
            throw new ProviderNotResolvableException(c.name(), "provider '" + c.name() + "' needs its key in the"
                    + " environment variable key_env names, but key_env is " + ConfigValues.masked(c.keyEnv())
                    + ", which looks like a key rather than a variable name, and no such variable is set. Put the"
                    + " key in a variable (export MY_KEY=...) and set key_env to its name" + where.get() + ".");
        }
        throw new ProviderNotResolvableException(c.name(), "provider '" + c.name() + "' needs its key in environment"
                + " variable " + c.keyEnv() + ", which is not set (or empty). Export it before running (export "
                + c.keyEnv() + "=...) or change key_env" + where.get() + ".");
    }

    /**
     * The key for a catalogue fetch or health check: a gateway's admin key when its variable is
     * set (a gateway's {@code /v1/models} wants it, and a probe must not mint a key), else the
     * provider's key, or none.
     */
    Secret forProbe(ProviderConfig c) {
        if (c.gateway() != null) {
            String admin = environment.get().get(c.gateway().adminKeyEnv());
            if (admin != null && !admin.isEmpty()) {
                return Secret.of(admin);
            }
        }
        return optionalKey(c);
    }

    /**
     * The gateway admin key of a provider, from the environment variable its gateway names.
     *
     * @throws ProviderNotResolvableException for a provider without a gateway, or an unset variable (named)
     */
    Secret admin(ProviderConfig c) {
        String name = c.name();
        ProviderConfig.Gateway g = c.gateway();
        if (g == null) {
            throw new ProviderNotResolvableException(name, "provider '" + name + "' has no gateway configured,"
                    + " so it has no admin key; add \"gateway\": {\"type\": \"litellm\", \"admin_key_env\": ...}");
        }
        String value = environment.get().get(g.adminKeyEnv());
        if (value == null || value.isEmpty()) {
            throw new ProviderNotResolvableException(name, "the " + g.type().wireName() + " gateway of provider '"
                    + name + "' needs its admin key in environment variable " + ConfigValues.envName(g.adminKeyEnv())
                    + ", which is not set; export it before running");
        }
        return Secret.of(value);
    }

    /** The key for a probe: whatever the environment has, or none. */
    private Secret optionalKey(ProviderConfig c) {
        if (c.keyEnv() == null) {
            return null;
        }
        String value = environment.get().get(c.keyEnv());
        return value == null || value.isEmpty() ? null : Secret.of(value);
    }
}
