package dev.harness4j.testkit.bench;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.provider.ModelPrice;
import dev.harness4j.core.provider.PriceList;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves the provider {@value #NAME} to a running {@link ScriptedModelServer}: its three API styles (or
 * those given),
 * a fixed test key, and any model the server has a script for (no default model). Every scripted
 * model costs {@link #PRICE} (it is also a {@link PriceList}), so a metered run gets a cost.
 * Immutable.
 *
 * <pre>{@code
 * ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
 * HarnessRunner runner = HarnessRunner.builder().providers(new ScriptedProvider(server)).build();
 * }</pre>
 */
public final class ScriptedProvider implements ProviderResolver, PriceList {
    /** The provider name: {@value}. */
    public static final String NAME = "scripted";
    /** The key sent to the server (not a real secret, but handled as one). */
    public static final String KEY = "sk-harness4j-scripted";

    /**
     * What every scripted model costs, in USD per million tokens: $3 input, $15 output, $0.30
     * cache read, $3.75 cache write (the shape of a mid-size hosted model's price).
     */
    public static final ModelPrice PRICE = ModelPrice.of("3", "15").withCache("0.30", "3.75");

    /** The API styles the scripted server speaks, all of which this provider serves by default. */
    public static final Set<ApiStyle> STYLES = Set.copyOf(EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI, ApiStyle.GEMINI));

    private final ScriptedModelServer server;
    private final Set<ApiStyle> styles;

    /**
     * The provider for a server, serving all of {@link #STYLES}.
     *
     * @param server the running server
     */
    public ScriptedProvider(ScriptedModelServer server) {
        this(server, STYLES);
    }

    /**
     * The provider for a server, declaring only some of the styles it speaks (to run an adapter
     * on one route: an Anthropic-only provider, say).
     *
     * @param server the running server
     * @param styles a non-empty subset of {@link #STYLES}
     */
    public ScriptedProvider(ScriptedModelServer server, Set<ApiStyle> styles) {
        this.server = Objects.requireNonNull(server, "server");
        if (styles.isEmpty() || !STYLES.containsAll(styles)) {
            throw new IllegalArgumentException("the scripted server speaks " + STYLES + "; styles must be a non-empty "
                    + "subset of them, was " + styles);
        }
        this.styles = Set.copyOf(styles);
    }

    @Override
    public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
        if (!NAME.equals(provider)) {
            return Optional.empty();
        }
        if (requestedModel == null) {
            throw new ProviderNotResolvableException(provider, "the scripted provider has no default model: request one of "
                    + server.models() + " (--model), or script another with server.script(..)");
        }
        if (!server.models().contains(requestedModel)) {
            throw new ProviderNotResolvableException(provider, "the scripted server has no script for model '"
                    + requestedModel + "'; scripted models: " + server.models()
                    + " (call server.script(\"" + requestedModel + "\", scenario) first)");
        }
        return Optional.of(new ResolvedProvider(NAME, styles, server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY,
                requestedModel));
    }

    /** {@link #PRICE} for any model of provider {@value #NAME}. */
    @Override
    public Optional<ModelPrice> price(String provider, String model) {
        return NAME.equals(provider) ? Optional.of(PRICE) : Optional.empty();
    }

    @Override
    public Set<String> providerNames() {
        return Set.of(NAME);
    }
}
