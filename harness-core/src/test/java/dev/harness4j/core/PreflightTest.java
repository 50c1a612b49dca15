package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreflightTest {
    @TempDir
    Path state;

    private HarnessRunner runner;
    private Preflight preflight;

    /** An adapter that speaks only OpenAI chat, and refuses the CLI's own login. */
    static final class OpenAiOnly implements Harness {
        @Override public String id() { return "openai-only"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo 1"), "apt-get install dash"); }
        @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException(); }
        @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }

        @Override
        public Optional<String> unsupported(ResolvedProvider p) {
            if (p.usesCliLogin()) {
                return Optional.of("openai-only has no login of its own; give provider '" + p.name() + "' a base_url");
            }
            return p.serves(ApiStyle.OPENAI) ? Optional.empty()
                    : Optional.of("openai-only speaks OpenAI chat, but provider '" + p.name() + "' serves " + p.apiStyles()
                            + "; pick a provider that serves OPENAI");
        }
    }

    /** An adapter whose provider check throws: reported as a problem, not thrown. */
    static final class Faulty extends OpenAiOnlyBase {
        @Override public String id() { return "faulty"; }
        @Override public Optional<String> unsupported(ResolvedProvider p) { throw new IllegalStateException("boom"); }
    }

    abstract static class OpenAiOnlyBase implements Harness {
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo 1"), "apt-get install dash"); }
        @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException(); }
        @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }
    }

    /** A resolver of its own kind (no catalogue), which also answers for "shadowed" before the providers do. */
    private static ProviderResolver custom() {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return Set.of("custom", "shadowed").contains(provider)
                        ? Optional.of(new ResolvedProvider(provider, EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                                null, AuthScheme.API_KEY, model == null ? "c-1" : model))
                        : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("custom", "shadowed");
            }
        };
    }

    @BeforeEach
    void setUp() {
        Providers providers = Providers.builder().environment(Map.of()).add(
                ProviderConfig.builder("listed").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:2").keyOptional()
                        .models("m-1", "m-2").defaultModel("m-1").build(),
                ProviderConfig.builder("big").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:2").keyOptional()
                        .models(IntStream.range(0, 20).mapToObj(i -> "big-" + i).toList()).build(),
                ProviderConfig.builder("anthropic-only").apiStyles(ApiStyle.ANTHROPIC).baseUrl("http://127.0.0.1:3")
                        .keyOptional().build(),
                ProviderConfig.builder("login").cliLogin().models("sonnet").build(),
                ProviderConfig.builder("shadowed").apiStyles(ApiStyle.OPENAI).baseUrl("http://127.0.0.1:2").keyOptional()
                        .models("s-1").build()).build();
        runner = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new OpenAiOnly()).add(new Faulty()).build())
                .providers(custom(), providers).build();
        preflight = Preflight.of(runner);
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    @Test
    void aPairTheAdapterRefusesIsAProblemNamingThePairAndTheAdaptersFix() {
        Preflight.Findings f = preflight.check("openai-only", "anthropic-only", "claude-x");

        assertThat(f.problems()).containsExactly("openai-only × anthropic-only: openai-only speaks OpenAI chat, but "
                + "provider 'anthropic-only' serves [ANTHROPIC]; pick a provider that serves OPENAI");
        assertThat(preflight.check("openai-only", "login", "sonnet").problems()).singleElement().asString()
                .startsWith("openai-only × login: ").contains("base_url");
        assertThat(preflight.check("openai-only", "listed", "m-2").problems()).isEmpty();
        assertThat(preflight.check("faulty", "listed", "m-2").problems()).singleElement().asString()
                .startsWith("faulty × listed: ").contains("boom");
    }

    @Test
    void aModelTheCatalogueDoesNotListIsAProblemWithTheCatalogueAndTheFix() {
        assertThat(preflight.check("openai-only", "listed", "m-3").problems()).containsExactly("provider 'listed' does "
                + "not list model 'm-3' in its catalogue (2 models: m-1, m-2): pick one of those, or, if the provider "
                + "serves it, refresh the catalogue (harness4j providers refresh listed) or add it to the provider's models");
        assertThat(preflight.check("openai-only", "listed", null).problems()).as("the default model, listed").isEmpty();
        assertThat(preflight.model(runner.resolveProvider("big", "nope"))).hasValueSatisfying(p -> assertThat(p)
                .contains("20 models: big-0, big-1", "big-11 and 8 more").doesNotContain("big-12"));
    }

    @Test
    void aModelNoCatalogueCanConfirmIsOnlyAWarning() {
        Preflight.Findings unlisted = preflight.check("openai-only", "custom", "anything");
        assertThat(unlisted.problems()).isEmpty();
        assertThat(unlisted.warnings()).containsExactly(Preflight.unchecked("custom", List.of("anything")));
        assertThat(unlisted.warnings().get(0)).contains("provider 'custom' has no model catalogue", "model anything was",
                "harness4j providers refresh custom");
        assertThat(preflight.catalogue("anthropic-only")).as("an empty models[]").isEmpty();
        assertThat(preflight.catalogue("shadowed")).as("resolved by the resolver before the providers").isEmpty();
        assertThat(preflight.catalogue("listed")).contains(List.of("m-1", "m-2"));
        assertThat(preflight.check("openai-only", "listed", "m-1").warnings()).isEmpty();
        assertThat(Preflight.unchecked("p", List.of("a", "b"))).contains("models a, b were not checked");
    }

    @Test
    void anUnknownHarnessAndAnUnknownProviderAreProblemsAndNothingElseIsChecked() {
        Preflight.Findings f = preflight.check("ghost", "nowhere", "m");

        assertThat(f.problems()).hasSize(2);
        assertThat(f.problems().get(0)).contains("unknown harness 'ghost'");
        assertThat(f.problems().get(1)).contains("unknown provider 'nowhere'");
        assertThat(f.warnings()).isEmpty();
        assertThat(preflight.pair("ghost", runner.resolveProvider("listed", null))).as("reported by harness(id)").isEmpty();
    }
}
