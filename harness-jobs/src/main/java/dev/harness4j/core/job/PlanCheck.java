package dev.harness4j.core.job;

import dev.harness4j.core.Preflight;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a plan's phases against each other ({@link #problems(JobPlan)}) and against a runner
 * ({@link #against}), and orders them; functions of their arguments, writing nothing.
 */
final class PlanCheck {
    /** A phase id: becomes part of run ids and file names. */
    static final Pattern PHASE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,39}");
    /** A job id: becomes a directory name and part of run ids. */
    static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private PlanCheck() {}

    /** Every problem of the plan, empty when it can run. */
    static List<String> problems(JobPlan plan) {
        List<String> problems = new ArrayList<>();
        if (plan.id() != null && !JOB_ID.matcher(plan.id()).matches()) {
            problems.add("job id '" + plan.id() + "' must match " + JOB_ID);
        }
        if (plan.phases().isEmpty()) {
            problems.add("the plan has no phases; add at least one");
        }
        Set<String> ids = new HashSet<>();
        for (PhaseSpec p : plan.phases()) {
            if (!PHASE_ID.matcher(p.id()).matches()) {
                problems.add("phase id '" + p.id() + "' must match " + PHASE_ID);
            }
            if (!ids.add(p.id())) {
                problems.add("phase id '" + p.id() + "' is used twice; phase ids must be unique");
            }
            if (p.prompt().isBlank()) {
                problems.add("phase " + p.id() + " has a blank prompt");
            }
            if (blank(plan.harnessOf(p))) {
                problems.add("phase " + p.id() + " has no harness; set the phase's or the job's");
            }
            if (blank(plan.providerOf(p))) {
                problems.add("phase " + p.id() + " has no provider; set the phase's or the job's");
            }
        }
        for (PhaseSpec p : plan.phases()) {
            for (String d : p.dependsOn()) {
                if (!ids.contains(d)) {
                    problems.add("phase " + p.id() + " depends on unknown phase '" + d + "' (phases: " + ids + ")");
                } else if (d.equals(p.id())) {
                    problems.add("phase " + p.id() + " depends on itself");
                }
            }
        }
        cycles(plan.phases()).forEach(c -> problems.add("phases form a cycle: " + String.join(" -> ", c)));
        Map<String, List<String>> deps = dependencies(plan.phases());
        for (PhaseSpec p : plan.phases()) {
            if (!p.continueSession()) {
                continue;
            }
            List<String> from = deps.get(p.id());
            if (from.size() != 1) {
                problems.add("phase " + p.id() + " continues a session, so it must depend on exactly one phase"
                        + " (whose session it continues); it depends on " + (from.isEmpty() ? "none" : from));
                continue;
            }
            PhaseSpec before = plan.phases().stream().filter(q -> q.id().equals(from.get(0))).findFirst().orElse(null);
            if (before != null && !java.util.Objects.equals(plan.harnessOf(before), plan.harnessOf(p))) {
                problems.add("phase " + p.id() + " continues the session of phase " + before.id() + ", so it needs"
                        + " its harness " + plan.harnessOf(before) + ", not " + plan.harnessOf(p));
            }
        }
        return problems;
    }

    /**
     * Every problem and warning of a plan against a runner, before anything is written: each
     * phase's harness (known, installed), provider (resolvable, with a model), the harness ×
     * provider pair (the adapter accepts it) and the model (in the provider's catalogue), and the
     * same for each of the phase's fallback providers with the phase's harness. Problems name the
     * phase; a warning (a model no catalogue can confirm) is given once, whatever phases share it.
     *
     * @param plan a plan whose phases passed {@link #problems(JobPlan)}
     * @param preflight the checks of the runner the job would run on
     * @return the findings
     */
    static Preflight.Findings against(JobPlan plan, Preflight preflight) {
        List<String> problems = new ArrayList<>();
        Set<String> warnings = new LinkedHashSet<>();
        for (PhaseSpec p : order(plan.phases())) {
            String harness = plan.harnessOf(p);
            Preflight.Findings own = preflight.check(harness, plan.providerOf(p), plan.modelOf(p));
            own.problems().forEach(problem -> problems.add("phase " + p.id() + ": " + problem));
            warnings.addAll(own.warnings());
            preflight.mcp(harness, p.mcpServers()).ifPresent(why -> problems.add("phase " + p.id() + ": " + why));
            for (PhaseSpec.Fallback f : p.fallbacks()) {
                Preflight.Findings fb = preflight.check(harness, f.provider(), f.model() != null ? f.model() : plan.modelOf(p));
                // the harness's own problem was reported for the phase already
                fb.problems().stream().filter(problem -> !own.problems().contains(problem))
                        .forEach(problem -> problems.add("phase " + p.id() + "'s fallback " + f.provider() + ": " + problem));
                warnings.addAll(fb.warnings());
            }
        }
        return new Preflight.Findings(problems, new ArrayList<>(warnings));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** The dependencies of each phase: the named ones, or the one before when no phase names any. */
    static Map<String, List<String>> dependencies(List<PhaseSpec> phases) {
        boolean graph = phases.stream().anyMatch(p -> !p.dependsOn().isEmpty());
        Map<String, List<String>> deps = new LinkedHashMap<>();
        for (int i = 0; i < phases.size(); i++) {
            PhaseSpec p = phases.get(i);
            deps.put(p.id(), graph ? p.dependsOn() : i == 0 ? List.of() : List.of(phases.get(i - 1).id()));
        }
        return deps;
    }

    /** Each phase's dependencies, transitively, in run order. */
    static List<String> ancestors(List<PhaseSpec> phases, String phaseId) {
        Map<String, List<String>> deps = dependencies(phases);
        Set<String> seen = new HashSet<>();
        List<String> todo = new ArrayList<>(deps.getOrDefault(phaseId, List.of()));
        while (!todo.isEmpty()) {
            String d = todo.remove(todo.size() - 1);
            if (seen.add(d)) {
                todo.addAll(deps.getOrDefault(d, List.of()));
            }
        }
        List<String> out = new ArrayList<>();
        for (PhaseSpec p : order(phases)) {
            if (seen.contains(p.id())) {
                out.add(p.id());
            }
        }
        return out;
    }

    /** The cycles among the named dependencies, each as {@code a, b, a}; unknown ids ignored. */
    static List<List<String>> cycles(List<PhaseSpec> phases) {
        Map<String, List<String>> deps = new LinkedHashMap<>();
        phases.forEach(p -> deps.putIfAbsent(p.id(), p.dependsOn()));
        Map<String, Integer> color = new HashMap<>(); // absent white, 1 grey, 2 black
        List<List<String>> found = new ArrayList<>();
        Set<Set<String>> seen = new HashSet<>();
        for (String start : deps.keySet()) {
            visit(start, deps, color, new ArrayList<>(), found, seen);
        }
        return found;
    }

    private static void visit(String id, Map<String, List<String>> deps, Map<String, Integer> color, List<String> path,
            List<List<String>> found, Set<Set<String>> seen) {
        Integer c = color.get(id);
        if (c != null && c == 2) {
            return;
        }
        if (c != null && c == 1) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(id), path.size()));
            if (seen.add(new HashSet<>(cycle)) && !(cycle.size() == 1)) { // a self-dependency is reported apart
                cycle.add(id);
                found.add(cycle);
            }
            return;
        }
        color.put(id, 1);
        path.add(id);
        for (String d : deps.getOrDefault(id, List.of())) {
            if (deps.containsKey(d)) {
                visit(d, deps, color, path, found, seen);
            }
        }
        path.remove(path.size() - 1);
        color.put(id, 2);
    }

    /** The phases in run order: dependencies first, ties in the order given. The plan must be valid. */
    static List<PhaseSpec> order(List<PhaseSpec> phases) {
        Map<String, List<String>> deps = dependencies(phases);
        List<PhaseSpec> out = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        while (out.size() < phases.size()) {
            boolean progressed = false;
            for (PhaseSpec p : phases) {
                if (!done.contains(p.id()) && done.containsAll(deps.get(p.id()))) {
                    out.add(p);
                    done.add(p.id());
                    progressed = true;
                    break;
                }
            }
            if (!progressed) {
                throw new IllegalStateException("the phases have a cycle; check the plan with PlanCheck.problems first");
            }
        }
        return out;
    }
}
