package dev.harness4j.bench;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.HarnessRegistry;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Adapters and a provider resolver for bench tests. */
final class BenchTesting {
    private BenchTesting() {}

    static Harness harness(String id, String binary) {
        return harness(id, binary, false);
    }

    /** {@link #harness(String, String)}, taking MCP servers when {@code mcp}. */
    static Harness harness(String id, String binary, boolean mcp) {
        return new Harness() {
            @Override public String id() { return id; }
            @Override public boolean supportsMcp() { return mcp; }
            @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            @Override public InstallInfo installInfo() {
                return new InstallInfo(binary, List.of("--version"), "npm i -g " + binary + "@1.0.0");
            }
            @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException(); }
            @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }
        };
    }

    /**
     * An adapter whose binary exists everywhere ({@code sh}) that speaks only {@code style}: it
     * refuses every other provider through {@link Harness#unsupported}, naming the fix.
     */
    static Harness speaking(String id, ApiStyle style) {
        Harness base = harness(id, "sh");
        return new Harness() {
            @Override public String id() { return id; }
            @Override public CompletionMode completionMode() { return base.completionMode(); }
            @Override public InstallInfo installInfo() { return base.installInfo(); }
            @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException(); }
            @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }
            @Override public Optional<String> unsupported(ResolvedProvider p) {
                return p.serves(style) ? Optional.empty() : Optional.of(id + " speaks only " + style + ", but provider '"
                        + p.name() + "' serves " + p.apiStyles() + "; pick a provider that serves " + style);
            }
        };
    }

    /** Three adapters whose binaries exist everywhere ({@code sh}, {@code ls}, {@code cat}) and one that is not installed. */
    static HarnessRegistry registry() {
        return HarnessRegistry.builder().add(harness("claude-code", "sh", true)).add(harness("opencode", "ls"))
                .add(harness("aider", "cat")).add(harness("ghost", "definitely-not-installed-h4j")).build();
    }

    /** Providers by name → default model (null: none); "broken" always throws. */
    static ProviderResolver resolver(Map<String, String> defaults) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
                if (provider.equals("broken")) {
                    throw new ProviderNotResolvableException(provider, "provider 'broken' needs env var BROKEN_KEY: export it");
                }
                if (!defaults.containsKey(provider)) {
                    return Optional.empty();
                }
                String model = requestedModel != null ? requestedModel : defaults.get(provider);
                if (model == null) {
                    throw new ProviderNotResolvableException(provider, "provider '" + provider
                            + "' has no default model: pass --model or set default_model");
                }
                return Optional.of(new ResolvedProvider(provider, EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                        null, AuthScheme.API_KEY, model));
            }

            @Override
            public Set<String> providerNames() {
                return defaults.keySet();
            }
        };
    }
}
