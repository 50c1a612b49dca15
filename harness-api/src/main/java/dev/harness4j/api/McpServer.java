package dev.harness4j.api;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A Model Context Protocol server given to one run's agent ({@link RunSpec.Builder#mcpServer}):
 * the adapter writes it into its CLI's own per-run configuration (never the user's), so the agent
 * can call the server's tools. Either a {@link Stdio} server, a command the CLI starts as its own
 * child (inside the run's sandbox when the runner confines it), or an {@link Http} server the CLI
 * reaches at a URL.
 *
 * <pre>{@code
 * RunSpec spec = RunSpec.builder("claude-code", "anthropic")
 *         .prompt("Look the ticket up and fix it")
 *         .baseline(Path.of("/src/my-repo"))
 *         .mcpServer(McpServer.stdio("tickets", "/opt/tickets/bin/tickets-mcp", "--read-only")
 *                 .withEnv("TICKETS_URL", "http://127.0.0.1:8080"))
 *         .build();
 * }</pre>
 *
 * <p>A harness whose adapter does not say {@link Harness#supportsMcp()} refuses a run with MCP
 * servers before anything is written. The tools reach the model under names each CLI derives
 * from the server's {@link #name()} (Claude Code: {@code mcp__<name>__<tool>}).
 */
public sealed interface McpServer permits McpServer.Stdio, McpServer.Http {

    /** What a server's name must look like: a letter or digit, then letters, digits, {@code _} or {@code -}; at most 40. */
    Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,39}");

    /** What an environment variable's name must look like. */
    Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The server's name, unique within a run: the key in the CLI's configuration, and the part of
     * each tool's name that says which server it comes from.
     *
     * @return the name, matching {@link #NAME}
     */
    String name();

    /**
     * A server the CLI starts as a child process and speaks to over its stdin and stdout.
     *
     * @param name the server's name (see {@link #NAME})
     * @param command the executable: an absolute path, or a bare name on the sandbox's {@code PATH}
     * @param args its arguments
     * @return the server, with no environment and no paths of its own
     */
    static Stdio stdio(String name, String command, String... args) {
        return new Stdio(name, command, List.of(args), Map.of(), Map.of(), List.of(), List.of());
    }

    /**
     * A server the CLI reaches over HTTP (MCP's streamable HTTP transport).
     *
     * @param name the server's name (see {@link #NAME})
     * @param url its endpoint, {@code http} or {@code https}
     * @return the server
     */
    static Http http(String name, URI url) {
        return new Http(name, url);
    }

    /**
     * Checks a server's name.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when it does not match {@link #NAME}, saying what would
     */
    static String requireValidName(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("MCP server name '" + name + "' is not allowed: use 1 to 40 letters, "
                    + "digits, '_' or '-', starting with a letter or digit (it becomes a config key and part of "
                    + "each tool's name), e.g. 'tickets'");
        }
        return name;
    }

    /**
     * A server started by the CLI as its own child, speaking JSON-RPC over stdio. When the runner
     * confines the run, the server runs inside the run's sandbox and sees what the agent sees
     * (see {@link Invocation}), plus its command's install when given by absolute path outside the
     * system (as for a CLI), its {@link #readOnlyPaths()} and its {@link #writablePaths()}.
     *
     * @param name the server's name (see {@link McpServer#NAME})
     * @param command the executable: an absolute path, or a bare name on the sandbox's {@code PATH}
     * @param args its arguments
     * @param env variables set for it on top of what the CLI passes its children; they are
     *     written into the CLI's per-run configuration in the run's scratch dir, never into
     *     {@code meta.json} or a log; but a spec that is queued, planned or written in a task
     *     file keeps them as given, so put no secret here: use {@code envFrom}
     * @param envFrom variables set for it whose values come from the runner's environment when the
     *     run starts: variable name for the server → name of the runner's variable holding the
     *     value (a key, a token). Only the name is ever stored (queue entries, job plans,
     *     {@code task.json}); the value is resolved by the runner ({@link #resolve}), reaches the
     *     CLI's per-run configuration only, and is masked in everything the run writes. A run
     *     whose runner lacks one of the variables is refused before anything is written.
     * @param readOnlyPaths absolute paths it must read that a confined run would not see (a
     *     classpath, data files); missing ones are skipped
     * @param writablePaths absolute paths it must write that a confined run would not see
     */
    record Stdio(String name, String command, List<String> args, Map<String, String> env,
            Map<String, String> envFrom, List<Path> readOnlyPaths, List<Path> writablePaths) implements McpServer {

        /**
         * Checks the parts and copies the collections (the environments sorted by name).
         *
         * @param name the server's name
         * @param command the executable
         * @param args its arguments
         * @param env its variables
         * @param envFrom its variables taken from the runner's environment (name → runner's variable)
         * @param readOnlyPaths absolute paths shown read-only in the sandbox
         * @param writablePaths absolute paths shown read-write in the sandbox
         * @throws IllegalArgumentException for a bad name, a blank command, a bad variable name, a
         *     variable in both {@code env} and {@code envFrom}, or a relative path
         */
        public Stdio {
            McpServer.requireValidName(name);
            Objects.requireNonNull(command, "command");
            if (command.isBlank()) {
                throw new IllegalArgumentException("MCP server '" + name + "' needs a command to start");
            }
            args = List.copyOf(Objects.requireNonNull(args, "args"));
            env = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(env, "env")));
            env.forEach((k, v) -> {
                Objects.requireNonNull(v, "env value of " + k);
                requireEnvName(name, k);
            });
            envFrom = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(envFrom, "envFrom")));
            for (Map.Entry<String, String> e : envFrom.entrySet()) {
                requireEnvName(name, e.getKey());
                requireEnvName(name, Objects.requireNonNull(e.getValue(), "envFrom variable of " + e.getKey()));
                if (env.containsKey(e.getKey())) {
                    throw new IllegalArgumentException("MCP server '" + name + "': " + e.getKey()
                            + " is given both a value (env) and a variable to take it from (envFrom); keep one");
                }
            }
            readOnlyPaths = absolute(name, readOnlyPaths);
            writablePaths = absolute(name, writablePaths);
        }

        /**
         * A server without variables taken from the runner's environment: the constructor before
         * {@link #envFrom()} existed.
         *
         * @param name the server's name
         * @param command the executable
         * @param args its arguments
         * @param env its variables
         * @param readOnlyPaths absolute paths shown read-only in the sandbox
         * @param writablePaths absolute paths shown read-write in the sandbox
         */
        public Stdio(String name, String command, List<String> args, Map<String, String> env,
                List<Path> readOnlyPaths, List<Path> writablePaths) {
            this(name, command, args, env, Map.of(), readOnlyPaths, writablePaths);
        }

        /**
         * A copy with one more environment variable.
         *
         * @param key the variable's name
         * @param value its value
         * @return the copy
         */
        public Stdio withEnv(String key, String value) {
            Map<String, String> e = new TreeMap<>(env);
            e.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return new Stdio(name, command, args, e, envFrom, readOnlyPaths, writablePaths);
        }

        /**
         * A copy with one more variable whose value the runner takes from its own environment when
         * the run starts (see {@link #envFrom()}): the way to hand a server a key or token.
         *
         * <pre>{@code
         * McpServer.stdio("tickets", "/opt/t/bin/tickets-mcp").withEnvFrom("TICKETS_TOKEN", "MY_TICKETS_TOKEN")
         * }</pre>
         *
         * @param key the variable's name for the server
         * @param variable the name of the runner's environment variable holding the value
         * @return the copy
         */
        public Stdio withEnvFrom(String key, String variable) {
            Map<String, String> e = new TreeMap<>(envFrom);
            e.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(variable, "variable"));
            return new Stdio(name, command, args, env, e, readOnlyPaths, writablePaths);
        }

        /**
         * The names of the runner's variables this server needs that {@code environment} lacks
         * (or holds empty), in {@link #envFrom()} order.
         *
         * @param environment the runner's environment: a variable's value, or {@code null}
         * @return the missing variables' names; empty when {@link #resolve} will succeed
         */
        public List<String> missingFrom(Function<String, String> environment) {
            Objects.requireNonNull(environment, "environment");
            return envFrom.values().stream().filter(v -> {
                String value = environment.apply(v);
                return value == null || value.isEmpty();
            }).distinct().toList();
        }

        /**
         * This server with its {@link #envFrom()} variables looked up in {@code environment} and
         * put into {@link #env()}: what an adapter writes into its CLI's configuration.
         *
         * @param environment the runner's environment: a variable's value, or {@code null}
         * @return the resolved copy (with an empty {@code envFrom}); this server when it has none
         * @throws IllegalArgumentException naming (never showing) a variable the environment lacks
         */
        public Stdio resolve(Function<String, String> environment) {
            if (envFrom.isEmpty()) {
                return this;
            }
            List<String> missing = missingFrom(environment);
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException(missingMessage(missing));
            }
            Map<String, String> e = new TreeMap<>(env);
            envFrom.forEach((k, v) -> e.put(k, environment.apply(v)));
            return new Stdio(name, command, args, e, Map.of(), readOnlyPaths, writablePaths);
        }

        /**
         * What a runner says when its environment lacks variables this server takes values from.
         *
         * @param missing the missing variables' names (from {@link #missingFrom})
         * @return the message, naming the server, the variables and the fix
         */
        public String missingMessage(List<String> missing) {
            return "MCP server '" + name + "' takes " + (missing.size() == 1 ? "the value of " : "the values of ")
                    + String.join(", ", missing) + " from the environment, which " + (missing.size() == 1 ? "is" : "are")
                    + " not set where this run runs: set " + (missing.size() == 1 ? "it" : "them")
                    + " in the runner's environment (HarnessRunner.Builder.environment, or the shell of the "
                    + "harness4j command or queue worker)";
        }

        /**
         * A copy that the sandbox shows one more path read-only.
         *
         * @param path an absolute file or directory
         * @return the copy
         */
        public Stdio withReadOnlyPath(Path path) {
            List<Path> p = new ArrayList<>(readOnlyPaths);
            p.add(Objects.requireNonNull(path, "path"));
            return new Stdio(name, command, args, env, envFrom, p, writablePaths);
        }

        /**
         * A copy that the sandbox shows one more path read-write.
         *
         * @param path an absolute file or directory
         * @return the copy
         */
        public Stdio withWritablePath(Path path) {
            List<Path> p = new ArrayList<>(writablePaths);
            p.add(Objects.requireNonNull(path, "path"));
            return new Stdio(name, command, args, env, envFrom, readOnlyPaths, p);
        }

        private static void requireEnvName(String server, String k) {
            if (!ENV_NAME.matcher(k).matches()) {
                throw new IllegalArgumentException("MCP server '" + server + "': '" + k
                        + "' is not an environment variable name (letters, digits and '_', not starting with a digit)");
            }
        }

        private static List<Path> absolute(String name, List<Path> paths) {
            List<Path> out = new ArrayList<>();
            for (Path p : Objects.requireNonNull(paths, "paths")) {
                if (!Objects.requireNonNull(p, "path").isAbsolute()) {
                    throw new IllegalArgumentException("MCP server '" + name + "': sandbox path must be absolute: " + p);
                }
                out.add(p.normalize());
            }
            return List.copyOf(out);
        }
    }

    /**
     * A server the CLI reaches over HTTP.
     *
     * @param name the server's name (see {@link McpServer#NAME})
     * @param url its endpoint, {@code http} or {@code https}, with a host
     */
    record Http(String name, URI url) implements McpServer {

        /**
         * Checks the parts.
         *
         * @param name the server's name
         * @param url its endpoint
         * @throws IllegalArgumentException for a bad name or a URL that is not absolute http(s)
         */
        public Http {
            McpServer.requireValidName(name);
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme();
            if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
                throw new IllegalArgumentException("MCP server '" + name + "': url must be an absolute http:// or "
                        + "https:// URL with a host, was " + url);
            }
        }
    }
}
