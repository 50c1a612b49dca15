package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks what a plan would run against a {@link HarnessRunner} before anything is queued or
 * started, the way its runs would meet it: the harness is known and installed, the provider
 * resolves (with a model), the harness can run on that provider ({@link Harness#unsupported}:
 * API styles, the CLI's own login, ...), and the model is in the provider's catalogue. Bench and
 * job plans collect every finding and refuse the plan, listing them all, when any is a problem.
 * Nothing here starts a process or writes a file.
 *
 * <pre>{@code
 * Preflight.Findings f = Preflight.of(runner).check("aider", "local-anthropic", null);
 * if (!f.problems().isEmpty()) {
 *     throw new IllegalStateException(String.join("\n", f.problems()));
 * }
 * f.warnings().forEach(System.err::println);   // e.g. a model no catalogue could confirm
 * }</pre>
 *
 * <p>A model is checked against the catalogue of the {@link Providers} that resolves the provider
 * ({@code models[]} of {@code providers.json}, filled by {@code harness4j providers refresh}): a
 * model the catalogue does not list is a problem; when there is no catalogue (an empty {@code
 * models[]}, or a resolver of another kind) the model cannot be checked, which is a warning.
 */
public final class Preflight {
    /** How many catalogue entries a "not listed" problem names before it says how many more there are. */
    static final int LISTED_MODELS = 12;

    private final HarnessRunner runner;

    private Preflight(HarnessRunner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * The checks against a runner's adapters, installations and providers.
     *
     * @param runner the runner the plan's runs would run on
     * @return the checks
     */
    public static Preflight of(HarnessRunner runner) {
        return new Preflight(runner);
    }

    /**
     * What is wrong with a harness id: unknown, or its CLI not installed (with the install hint).
     *
     * @param harnessId the harness id
     * @return the problem, or empty when the harness can run
     */
    public Optional<String> harness(String harnessId) {
        try {
            runner.installations().require(runner.registry().require(harnessId));
            return Optional.empty();
        } catch (HarnessException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Why a known harness cannot run on a resolved provider, naming the pair and the adapter's fix.
     *
     * @param harnessId a registered harness id
     * @param provider the provider as the runner resolved it
     * @return the problem, or empty when the adapter accepts the provider
     */
    public Optional<String> pair(String harnessId, ResolvedProvider provider) {
        Objects.requireNonNull(provider, "provider");
        Optional<Harness> h = runner.registry().find(harnessId);
        if (h.isEmpty()) {
            return Optional.empty(); // reported by harness(id)
        }
        String pair = harnessId + " × " + provider.name() + ": ";
        try {
            return h.get().unsupported(provider).map(why -> pair + why);
        } catch (RuntimeException e) {
            return Optional.of(pair + "the adapter's provider check failed (" + e + "); report it to the adapter's authors");
        }
    }

    /**
     * Why a harness cannot be given MCP servers (its adapter does not {@linkplain
     * Harness#supportsMcp() support MCP}), as the runner would refuse such a run.
     *
     * @param harnessId the harness id
     * @param servers the MCP servers a plan gives its runs
     * @return the problem, or empty when there are none, the harness supports them, or it is unknown
     *     (reported by {@link #harness(String)})
     */
    public Optional<String> mcp(String harnessId, List<McpServer> servers) {
        Objects.requireNonNull(servers, "servers");
        return runner.registry().find(harnessId).flatMap(h -> McpRefusal.of(runner.registry(), h, servers));
    }

    /**
     * The model catalogue of a provider as the runner would resolve it: the {@code models} of the
     * first {@link Providers} that configures it, unless a resolver before that one answers for it.
     *
     * @param provider the provider name
     * @return the model ids, or empty when no catalogue is known (none listed, or another resolver)
     */
    public Optional<List<String>> catalogue(String provider) {
        for (ProviderResolver r : runner.providerResolvers()) {
            if (r instanceof Providers p) {
                Optional<ProviderConfig> c = p.config(provider);
                if (c.isPresent()) {
                    return c.get().models().isEmpty() ? Optional.empty() : Optional.of(c.get().models());
                }
            } else if (r.providerNames().contains(provider)) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a resolved provider's model is one its catalogue lists.
     *
     * @param provider the provider as the runner resolved it
     * @return the problem (the model is not listed, with the catalogue and the fix), or empty when
     *     it is listed or there is no catalogue to check it against
     */
    public Optional<String> model(ResolvedProvider provider) {
        Optional<List<String>> models = catalogue(provider.name());
        if (models.isEmpty() || models.get().contains(provider.model())) {
            return Optional.empty();
        }
        List<String> all = models.get();
        String listed = String.join(", ", all.subList(0, Math.min(all.size(), LISTED_MODELS)))
                + (all.size() > LISTED_MODELS ? " and " + (all.size() - LISTED_MODELS) + " more" : "");
        return Optional.of("provider '" + provider.name() + "' does not list model '" + provider.model()
                + "' in its catalogue (" + all.size() + " models: " + listed + "): pick one of those, or, if the "
                + "provider serves it, refresh the catalogue (harness4j providers refresh " + provider.name()
                + ") or add it to the provider's models");
    }

    /**
     * The warning for models that no catalogue could confirm.
     *
     * @param provider the provider name
     * @param models the models asked for on it
     * @return the warning text
     */
    public static String unchecked(String provider, Collection<String> models) {
        return "provider '" + provider + "' has no model catalogue, so " + (models.size() == 1 ? "model " : "models ")
                + String.join(", ", models) + (models.size() == 1 ? " was" : " were") + " not checked: a model it "
                + "does not serve fails at run time; list its models (harness4j providers refresh " + provider
                + ") to check them before anything is queued";
    }

    /**
     * Every finding for one harness × provider × model: the harness, the provider's resolution,
     * the pair and the model (for a harness that {@linkplain Harness#needsProvider() needs no
     * provider}, the harness only).
     *
     * @param harnessId the harness id
     * @param provider the provider name
     * @param model the requested model, or {@code null} for the provider's default
     * @return the problems and warnings, each a complete sentence naming what it is about
     */
    public Findings check(String harnessId, String provider, String model) {
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        harness(harnessId).ifPresent(problems::add);
        if (runner.registry().find(harnessId).map(h -> !h.needsProvider()).orElse(false)) {
            return new Findings(problems, warnings); // its runs resolve no provider: nothing more to check
        }
        ResolvedProvider resolved;
        try {
            resolved = runner.resolveProvider(provider, model);
        } catch (HarnessException e) {
            problems.add(e.getMessage());
            return new Findings(problems, warnings);
        }
        pair(harnessId, resolved).ifPresent(problems::add);
        model(resolved).ifPresent(problems::add);
        if (catalogue(provider).isEmpty()) {
            warnings.add(unchecked(provider, List.of(resolved.model())));
        }
        return new Findings(problems, warnings);
    }

    /**
     * What {@link #check} found.
     *
     * @param problems what makes the combination impossible, each with its fix
     * @param warnings what could not be checked, or may fail at run time
     */
    public record Findings(List<String> problems, List<String> warnings) {
        /** Copies the lists. */
        public Findings {
            problems = List.copyOf(problems);
            warnings = List.copyOf(warnings);
        }
    }
}
