package dev.harness4j.core;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A tiny opaque harness for core's tests: runs {@code sh -c <option "script">} in the workspace,
 * with the provider's key in {@code $TEST_KEY} (a secret) and a git identity in the environment.
 * Option {@code binary} replaces {@code sh}; option {@code fail-prepare} makes prepare throw.
 */
public final class ShellHarness implements Harness {
    public static final String ID = "sh-test";
    public static final String KEY = "sk-test-Secr3t-value-4242";

    @Override public String id() { return ID; }
    @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
    @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo sh"), "apt-get install dash"); }

    @Override
    public Invocation prepare(HarnessContext ctx) {
        if (ctx.option("fail-prepare").isPresent()) {
            throw new HarnessException("provider " + ctx.provider().name() + " speaks no API this CLI understands");
        }
        Invocation.Builder b = Invocation.builder(ctx.option("binary").orElse(ctx.executable()), "-c",
                        ctx.option("script").orElse("true"))
                .workingDir(ctx.workspace())
                .env("GIT_AUTHOR_NAME", "Agent").env("GIT_AUTHOR_EMAIL", "agent@example.com")
                .env("GIT_COMMITTER_NAME", "Agent").env("GIT_COMMITTER_EMAIL", "agent@example.com")
                .env("SCRATCH", ctx.scratchDir().toString())
                .env("PROMPT", ctx.prompt())
                .file("config.json", "{\"model\":\"" + ctx.model() + "\"}");
        if (ctx.provider().secret() != null) {
            b.secretEnv("TEST_KEY", ctx.provider().secret().reveal());
        }
        ctx.option("extra-secret").ifPresent(s -> b.secretEnv("EXTRA_SECRET", s));
        return b.build();
    }

    @Override
    public HarnessResult interpret(Execution ex) {
        return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model())
                .summary(String.join("\n", ex.stdoutTail(1)))
                .build();
    }

    /** Resolves provider {@code local} (default model {@code default-model}) with key {@link #KEY}. */
    public static ProviderResolver provider() {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
                if (!provider.equals("local")) {
                    return Optional.empty();
                }
                return Optional.of(new ResolvedProvider("local", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:9"),
                        Secret.of(KEY), AuthScheme.API_KEY, requestedModel != null ? requestedModel : "default-model"));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("local");
            }
        };
    }
}
