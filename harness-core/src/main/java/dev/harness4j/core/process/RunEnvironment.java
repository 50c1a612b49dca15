package dev.harness4j.core.process;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The rule for what a run's processes inherit: a built environment, never the runner's whole one.
 * Every process a runner starts (the harness, its login probe, after-harness steps and the bench
 * verifier, the CLI's version probe) begins from {@link #base()}:
 *
 * <ol>
 *   <li>the {@linkplain #ALLOWED allowlist} copied from the runner's environment: {@code PATH},
 *       {@code HOME}, {@code LANG}, {@code LANGUAGE}, every {@code LC_*}, {@code TERM} and {@code
 *       TZ};
 *   <li>the names the caller {@linkplain #inherit(Collection) inherits} explicitly, copied from
 *       the runner's environment when set there;
 *   <li>the variables the caller {@linkplain #with(Map) gives} explicitly, as given.
 * </ol>
 *
 * On top of it the process gets what the adapter's {@code Invocation} sets (and loses what it
 * removes), {@code PWD}, the run marker and, when confined, the sandbox's HOME (unless the
 * invocation sets one); the version probe points HOME, the XDG base dirs and {@code TMPDIR} into a
 * throwaway home. Anything else in the runner's environment ({@code AWS_SECRET_ACCESS_KEY}, {@code
 * GITHUB_TOKEN}, {@code DATABASE_URL}, proxy settings, {@code XDG_*}, {@code TMPDIR}, {@code
 * SSH_AUTH_SOCK}, ...) never reaches a run's process, sandboxed or not; name it with {@code
 * inheritEnvironment(..)} where a CLI needs it (a corporate {@code HTTPS_PROXY}, {@code
 * NODE_EXTRA_CA_CERTS}).
 *
 * <p>Why {@code HOME} is on the list: it is a path, not a secret; an unconfined CLI that did not
 * get it would find the same directory through the password database (Node's {@code os.homedir()},
 * Python's {@code expanduser}); the adapters that keep a CLI's state out of it give the CLI a
 * per-run HOME of their own (aider, Qwen Code, Codex) or per-run config dirs (Claude Code,
 * opencode, Gemini CLI), and a confined run gets the sandbox's HOME.
 *
 * <p>In a runner, the runner's environment is {@code HarnessRunner.Builder.runnerEnvironment(..)}
 * (default {@code System.getenv()}), the inherited names are {@code inheritEnvironment(..)} and
 * the explicit variables {@code environment(Map)}. {@code USER}, {@code LOGNAME} and {@code SHELL}
 * are not on it: none of the bundled CLIs (Claude Code, opencode, aider, Codex, Gemini CLI, Qwen
 * Code, mini-swe-agent) needs them in its end-to-end tests against the scripted model server,
 * shell tools included (what asks for a user name or login shell falls back to the password
 * database).
 *
 * <p>The adapter still sees the runner's whole environment in {@code HarnessContext.environment()}
 * (to find a key or HOME); only the child process's environment is narrowed.
 *
 * <pre>{@code
 * Map<String, String> base = RunEnvironment.of(System.getenv())
 *         .inherit(List.of("HTTPS_PROXY"))
 *         .with(Map.of("GIT_CONFIG_NOSYSTEM", "1"))
 *         .base();
 * }</pre>
 */
public final class RunEnvironment {
    /** The variables copied from the runner's environment by default (plus every {@code LC_*}). */
    public static final List<String> ALLOWED = List.of("PATH", "HOME", "LANG", "LANGUAGE", "TERM", "TZ");

    /** The prefix of the locale categories copied by default ({@code LC_ALL}, {@code LC_CTYPE}, ...). */
    public static final String LOCALE_PREFIX = "LC_";

    private final Map<String, String> runner;
    private final Set<String> inherited;
    private final Map<String, String> explicit;

    private RunEnvironment(Map<String, String> runner, Set<String> inherited, Map<String, String> explicit) {
        this.runner = runner;
        this.inherited = inherited;
        this.explicit = explicit;
    }

    /**
     * The rule over a runner's environment, with nothing inherited or given yet.
     *
     * @param runnerEnvironment the runner's environment (usually {@code System.getenv()})
     * @return the rule
     */
    public static RunEnvironment of(Map<String, String> runnerEnvironment) {
        return new RunEnvironment(Map.copyOf(Objects.requireNonNull(runnerEnvironment, "runnerEnvironment")), Set.of(),
                Map.of());
    }

    /**
     * A copy that also copies these names from the runner's environment (those set there).
     *
     * @param names variable names
     * @return the new rule
     * @throws IllegalArgumentException for a name that is empty or holds {@code =} or NUL
     */
    public RunEnvironment inherit(Collection<String> names) {
        Set<String> s = new LinkedHashSet<>(inherited);
        for (String n : Objects.requireNonNull(names, "names")) {
            s.add(requireName(n));
        }
        return new RunEnvironment(runner, Set.copyOf(s), explicit);
    }

    /**
     * A copy that also sets these variables (they win over the runner's values).
     *
     * @param variables name → value
     * @return the new rule
     * @throws IllegalArgumentException for a name that is empty or holds {@code =} or NUL
     */
    public RunEnvironment with(Map<String, String> variables) {
        Map<String, String> m = new LinkedHashMap<>(explicit);
        Objects.requireNonNull(variables, "variables").forEach((k, v) -> m.put(requireName(k), Objects.requireNonNull(v, k)));
        return new RunEnvironment(runner, inherited, Map.copyOf(m));
    }

    /** Whether a variable of the runner's environment is copied by default (the allowlist). */
    public static boolean allowed(String name) {
        return ALLOWED.contains(name) || name.startsWith(LOCALE_PREFIX);
    }

    /** The names inherited on top of the allowlist. */
    public Set<String> inherited() {
        return inherited;
    }

    /** The environment a run's process starts from: allowlist, inherited names, explicit variables. */
    public Map<String, String> base() {
        Map<String, String> env = new LinkedHashMap<>();
        runner.forEach((k, v) -> {
            if (allowed(k) || inherited.contains(k)) {
                env.put(k, v);
            }
        });
        env.putAll(explicit);
        return Map.copyOf(env);
    }

    /** {@link #base()} of the JVM's environment: the allowlist of {@code System.getenv()}. */
    public static Map<String, String> defaults() {
        return of(System.getenv()).base();
    }

    /**
     * Checks a variable name.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when it is empty or holds {@code =} or NUL
     */
    public static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not an environment variable name: '" + name + "'");
        }
        return name;
    }
}
