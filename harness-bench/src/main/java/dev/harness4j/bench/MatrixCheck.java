package dev.harness4j.bench;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bench matrix's harnesses, providers and models checked against a runner ({@link Preflight}):
 * the harnesses that can run, each provider's requested and resolved models, every problem (a
 * harness × provider pair once, whatever the models) and one warning per provider whose models no
 * catalogue could confirm.
 */
final class MatrixCheck {
    /** The harness ids that are known and installed, in the order given. */
    final List<String> harnesses = new ArrayList<>();
    /** Provider → its {requested model (or null), resolved model} pairs. */
    final Map<String, List<String[]>> resolved = new LinkedHashMap<>();
    /** What could not be checked. */
    final List<String> warnings = new ArrayList<>();

    /**
     * Checks the matrix, adding every problem to {@code problems}.
     *
     * @param models the requested models; empty for each provider's default
     */
    MatrixCheck(HarnessRunner runner, Collection<String> harnessIds, Collection<String> providers, List<String> models,
            List<String> problems) {
        Preflight preflight = Preflight.of(runner);
        for (String id : harnessIds) {
            preflight.harness(id).ifPresentOrElse(problems::add, () -> harnesses.add(id));
        }
        Set<String> pairProblems = new LinkedHashSet<>();
        Map<String, Set<String>> unchecked = new LinkedHashMap<>(); // provider -> models no catalogue confirmed
        List<String> requested = models.isEmpty() ? Collections.singletonList(null) : models;
        for (String p : providers) {
            for (String m : requested) {
                ResolvedProvider rp;
                try {
                    rp = runner.resolveProvider(p, m);
                } catch (HarnessException e) {
                    problems.add(e.getMessage());
                    continue;
                }
                resolved.computeIfAbsent(p, k -> new ArrayList<>()).add(new String[] {m, rp.model()});
                preflight.model(rp).ifPresent(problems::add);
                if (preflight.catalogue(p).isEmpty()) {
                    unchecked.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(rp.model());
                }
                for (String h : harnesses) {
                    preflight.pair(h, rp).ifPresent(pairProblems::add);
                }
            }
        }
        problems.addAll(pairProblems);
        unchecked.forEach((p, ms) -> warnings.add(Preflight.unchecked(p, ms)));
    }
}
