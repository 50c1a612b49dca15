package dev.harness4j.core.provider;

import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.internal.util.Checks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link ProviderResolver}: provider endpoints configured in code and/or in {@code
 * <stateDir>/config/providers.json}, keys read from environment variables at resolve time, plus
 * model-catalogue fetches and authenticated health checks. Immutable and thread-safe once built.
 *
 * <pre>{@code
 * Providers providers = Providers.builder()
 *         .stateDir(Path.of(System.getProperty("user.home"), ".harness4j"))  // reads config/providers.json
 *         .add(ProviderConfig.scripted(server.baseUrl(), "scripted-a"))        // plus providers in code
 *         .build();
 * ResolvedProvider p = providers.resolve("anthropic", null).orElseThrow();     // default_model, key from env
 * CatalogueRefresh r = providers.refresh("ollama");                           // fetch /api/tags, rewrite the file
 * HealthCheck h = providers.health("litellm");
 * }</pre>
 *
 * <p>Model precedence: the run's requested model, else the provider's {@code default_model},
 * else resolution fails listing the catalogue. Keys are never stored: only the environment
 * variable's name is configured, and the {@link Secret} a resolution returns prints as {@code
 * ***}. The environment is injectable ({@link Builder#environment(Supplier)}).
 */
public final class Providers implements ProviderResolver, PriceList {
    private static final Logger log = LoggerFactory.getLogger(Providers.class);

    /** How long one catalogue probe (one URL) may take: 5 s. A local endpoint answers in milliseconds. */
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * How long one health-check request may take: 10 s (remote gateways can be slow to answer
     * their first request). The larger of this and the probe timeout bounds connecting.
     */
    public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, ProviderConfig> byName;
    private final Set<String> fromFile;
    private final Path configFile;
    private final ProviderKeys keys;
    private final Duration probeTimeout;
    private final Duration healthTimeout;
    private final EndpointProbe probe;

    private Providers(Map<String, ProviderConfig> byName, Set<String> fromFile, Path configFile,
            ProviderKeys keys, Duration probeTimeout, Duration healthTimeout,
            EndpointProbe probe) {
        this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
        this.fromFile = Set.copyOf(fromFile);
        this.configFile = configFile;
        this.keys = keys;
        this.probeTimeout = probeTimeout;
        this.healthTimeout = healthTimeout;
        this.probe = probe;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The providers of {@code <stateDir>/config/providers.json} (none when it does not exist). */
    public static Providers fromStateDir(Path stateDir) {
        return builder().stateDir(stateDir).build();
    }

    @Override
    public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
        Objects.requireNonNull(provider, "provider");
        ProviderConfig c = byName.get(provider);
        if (c == null) {
            return Optional.empty();
        }
        boolean requested = requestedModel != null && !requestedModel.isBlank();
        String model = requested ? requestedModel : c.defaultModel();
        if (model == null) {
            throw new ProviderNotResolvableException(provider, noModelMessage(c));
        }
        Secret secret = keys.forRun(c, () -> where(c.name()));
        if (!c.models().isEmpty() && !c.models().contains(model)) {
            log.info("provider {}: model {} is not in its catalogue of {} models; sending it anyway", provider, model,
                    c.models().size());
        }
        log.debug("provider {}: resolved model {} (from {}), key {}", provider, model,
                requested ? "the run" : "default_model",
                c.keyEnv() == null ? "none" : secret == null ? "absent (optional)"
                        : "from $" + ConfigValues.envName(c.keyEnv()));
        if (c.cliLogin()) {
            return Optional.of(ResolvedProvider.cliLogin(c.name(), model));
        }
        return Optional.of(new ResolvedProvider(c.name(), c.apiStyles(), c.rootUrl(), secret, c.auth(), model));
    }

    /** The model's price from its provider's {@code prices}, if configured. */
    @Override
    public Optional<ModelPrice> price(String provider, String model) {
        ProviderConfig c = byName.get(provider);
        return c == null ? Optional.empty() : Optional.ofNullable(c.prices().get(model));
    }

    @Override
    public Set<String> providerNames() {
        return Collections.unmodifiableSet(new TreeSet<>(byName.keySet()));
    }

    public Optional<ProviderConfig> config(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every provider, in the order added (code first, then the file). */
    public List<ProviderConfig> configs() {
        return List.copyOf(byName.values());
    }

    /** The providers file this instance reads and refreshes (it may not exist yet), if one was set. */
    public Optional<Path> configFile() {
        return Optional.ofNullable(configFile);
    }

    /**
     * The gateway admin key of a provider, from the environment variable its gateway names.
     *
     * @throws ProviderNotResolvableException for an unknown provider, one without a gateway, or
     *     an unset variable (named)
     */
    public Secret adminKey(String name) {
        return keys.admin(require(name));
    }

    /**
     * Fetches the provider's model catalogue (see {@link #probeTimeout()} per URL) without
     * changing anything; for a provider with a gateway, authenticated with its admin key when set.
     *
     * @throws ProviderUnreachableException listing every URL tried when none answered a list
     */
    public Catalogue fetchCatalogue(String name) {
        ProviderConfig c = require(name);
        requireEndpoint(c);
        return probe.catalogue(c, keys.forProbe(c), probeTimeout);
    }

    /**
     * Fetches the catalogue and stores it as the provider's {@code models}: in the providers
     * file when the provider came from it, and in the returned {@link
     * CatalogueRefresh#providers()}. In the file only that provider's {@code models} array
     * changes (the rest stays byte for byte), under a lock on {@code providers.json.lock} that
     * every instance and process shares (waiting at most 10 s), written atomically through a
     * symlink to its target, keeping the file's permissions. A {@code default_model} the endpoint no longer lists is
     * reported and left as is. When the endpoint is unreachable nothing is written.
     *
     * @throws ProviderUnreachableException when no catalogue URL answered
     */
    public CatalogueRefresh refresh(String name) {
        ProviderConfig c = require(name);
        requireEndpoint(c);
        Catalogue cat = probe.catalogue(c, keys.forProbe(c), probeTimeout);
        List<String> added = new ArrayList<>(new TreeSet<>(cat.models()));
        added.removeAll(c.models());
        List<String> removed = new ArrayList<>(new TreeSet<>(c.models()));
        removed.removeAll(cat.models());
        String vanished = c.defaultModel() != null && !cat.models().contains(c.defaultModel()) ? c.defaultModel() : null;
        ProviderConfig updated = c.withModels(cat.models());
        Path written = fromFile.contains(name) ? rewriteFile(name, cat.models()) : null;
        log.info("provider {}: catalogue refreshed from {}: {} models, {} added, {} removed{}", name,
                cat.endpoint(), cat.models().size(), added.size(), removed.size(),
                written == null ? "" : ", written to " + written);
        if (vanished != null) {
            log.warn("provider {}: default_model {} is no longer in its catalogue; left as is, fix it in {}", name,
                    vanished, written != null ? written : "its ProviderConfig");
        }
        return new CatalogueRefresh(name, cat.endpoint(), added, removed, vanished, updated, written,
                withConfig(updated));
    }

    /**
     * Checks that the provider answers an authenticated request with 2xx: its {@code
     * health_path}, else {@code /health/readiness} for a gateway, else the catalogue URLs in order
     * (the first 2xx wins); a gateway's admin key authenticates it when set. Each request may take
     * {@link #healthTimeout()} (default {@link #DEFAULT_HEALTH_TIMEOUT}). Never throws for an
     * unhealthy endpoint: the result says what happened.
     */
    public HealthCheck health(String name) {
        ProviderConfig c = require(name);
        requireEndpoint(c);
        HealthCheck h = probe.health(c, keys.forProbe(c), healthTimeout);
        log.debug("provider {}: health {} at {} in {} ms", name, h.healthy() ? "ok" : "failed", h.endpoint(),
                h.elapsed().toMillis());
        return h;
    }

    /** Refuses what needs an endpoint for a provider that is the CLI's own login. */
    private static void requireEndpoint(ProviderConfig c) {
        if (c.cliLogin()) {
            throw new ProviderNotResolvableException(c.name(), "provider '" + c.name() + "' is the CLI's own login: "
                    + "it has no endpoint to check or list models from (its models come from providers.json)");
        }
    }

    /** A copy with this provider config added or replaced (same file, environment and timeouts). */
    public Providers withConfig(ProviderConfig config) {
        Map<String, ProviderConfig> next = new LinkedHashMap<>(byName);
        next.put(config.name(), config);
        return new Providers(next, fromFile, configFile, keys, probeTimeout, healthTimeout, probe);
    }

    /** A copy whose health checks wait up to {@code value} per request (same configs, file and environment). */
    public Providers withHealthTimeout(Duration value) {
        Checks.positive(value, "healthTimeout");
        Duration connect = probeTimeout.compareTo(value) < 0 ? value : probeTimeout;
        return new Providers(byName, fromFile, configFile, keys, probeTimeout, value, new EndpointProbe(connect));
    }

    public Duration probeTimeout() {
        return probeTimeout;
    }

    public Duration healthTimeout() {
        return healthTimeout;
    }

    private ProviderConfig require(String name) {
        Objects.requireNonNull(name, "name");
        ProviderConfig c = byName.get(name);
        if (c == null) {
            throw new ProviderNotResolvableException(name, "unknown provider '" + name + "'; known providers: "
                    + providerNames() + where(null));
        }
        return c;
    }

    private String noModelMessage(ProviderConfig c) {
        String catalogue = c.models().isEmpty()
                ? "Its catalogue is empty: list models[] or fetch them with Providers.refresh(\"" + c.name() + "\")"
                : "Its catalogue: " + String.join(", ", c.models());
        return "provider '" + c.name() + "' has no model to use: the run asked for none and the provider has no"
                + " default_model. " + catalogue + ". Set the run's model, or set default_model" + where(c.name())
                + " (harness4j never falls back to a CLI's own default model).";
    }

    private String where(String provider) {
        if (provider != null && fromFile.contains(provider)) {
            return " in " + configFile;
        }
        return provider != null ? " in its ProviderConfig" : configFile == null ? "" : " (providers file: " + configFile + ")";
    }

    private Path rewriteFile(String name, List<String> models) {
        // under the file's lock, shared by every instance and process: re-read, change only this
        // provider's models[] in the text, keep everything else (see ProvidersFileEdit)
        if (!ProvidersFileEdit.replaceModels(configFile, name, models)) {
            log.warn("provider {} is no longer in {}; its refreshed catalogue was not written", name, configFile);
            return null;
        }
        return configFile;
    }

    /** Builds {@link Providers}; a bad argument fails in its setter. Not thread-safe. */
    public static final class Builder {
        private final List<ProviderConfig> inCode = new ArrayList<>();
        private Path configFile;
        private Supplier<Map<String, String>> environment = System::getenv;
        private Duration probeTimeout = DEFAULT_PROBE_TIMEOUT;
        private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;

        private Builder() {}

        /** Adds providers configured in code. */
        public Builder add(ProviderConfig... configs) {
            for (ProviderConfig c : configs) {
                inCode.add(Objects.requireNonNull(c, "config"));
            }
            return this;
        }

        /** Reads {@code <stateDir>/config/providers.json} when {@link #build()} runs, if it exists. */
        public Builder stateDir(Path stateDir) {
            return configFile(ProvidersFile.in(Objects.requireNonNull(stateDir, "stateDir")));
        }

        /** Reads this providers file when {@link #build()} runs, if it exists. */
        public Builder configFile(Path file) {
            this.configFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Where keys are looked up (default {@link System#getenv()}), asked at every resolution. */
        public Builder environment(Supplier<Map<String, String>> env) {
            this.environment = Objects.requireNonNull(env, "env");
            return this;
        }

        /** A fixed environment (tests, or a vault's values loaded once). */
        public Builder environment(Map<String, String> env) {
            Map<String, String> copy = Map.copyOf(env);
            return environment(() -> copy);
        }

        public Builder probeTimeout(Duration value) {
            this.probeTimeout = Checks.positive(value, "probeTimeout");
            return this;
        }

        public Builder healthTimeout(Duration value) {
            this.healthTimeout = Checks.positive(value, "healthTimeout");
            return this;
        }

        /**
         * @throws ProviderConfigException when the file is unreadable or invalid, or a provider
         *     name is defined twice (in code and in the file)
         */
        public Providers build() {
            Map<String, ProviderConfig> all = new LinkedHashMap<>();
            for (ProviderConfig c : inCode) {
                if (all.put(c.name(), c) != null) {
                    throw new IllegalArgumentException("provider '" + c.name() + "' was added twice in code");
                }
            }
            Set<String> fromFile = new HashSet<>();
            if (configFile != null && Files.exists(configFile)) {
                for (ProviderConfig c : ProvidersFile.read(configFile)) {
                    if (all.containsKey(c.name())) {
                        throw new ProviderConfigException(configFile, "provider '" + c.name() + "' is defined both in"
                                + " code and in " + configFile + "; rename one of them");
                    }
                    all.put(c.name(), c);
                    fromFile.add(c.name());
                }
            }
            Duration connect = probeTimeout.compareTo(healthTimeout) < 0 ? healthTimeout : probeTimeout;
            return new Providers(all, fromFile, configFile, new ProviderKeys(environment), probeTimeout, healthTimeout,
                    new EndpointProbe(connect));
        }
    }
}
