package dev.harness4j.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The process an adapter asks harness-core to start: the pure output of {@link
 * Harness#prepare(HarnessContext)}.
 *
 * <h2>What the process sees in the default sandbox</h2>
 *
 * <p>When the runner confines runs (bubblewrap, Linux), the process and everything it starts run
 * in a sandbox of their own, as the same user but with no capabilities:
 * <ul>
 *   <li><b>HOME</b> is a fresh empty directory of the run (under its scratch dir), not the user's:
 *     write the CLI's config there through {@link #files()} or let it create its own. Nothing of
 *     the real HOME is visible but the tools dir where the CLIs are installed (and what the
 *     runner was told to show).</li>
 *   <li><b>{@code /tmp}</b> (and {@code /var/tmp}) are private and empty, gone with the run.</li>
 *   <li><b>The system</b> is read-only: {@code /usr}, {@code /bin}, {@code /sbin}, {@code /lib*},
 *     and {@code /etc} with its secrets masked ({@code shadow}, {@code gshadow}, ssh host
 *     private keys, {@code /etc/ssl/private} read as empty); its own {@code /proc} and a minimal {@code /dev}. Nothing
 *     else of the host: no {@code /run}, {@code /var}, {@code /home}, {@code /root}, {@code /opt},
 *     {@code /srv}, {@code /mnt}, {@code /sys}, no other work tree, no host Unix socket.</li>
 *   <li><b>Writable</b>: the working dir (the run's workspace), the run's scratch dir (where
 *     {@link #files()} are written), and the {@link #writablePaths()} this invocation asks for.
 *     <b>Read-only</b>: the baseline repository, the tools dir (and the install prefix a tool's
 *     {@code bin} links into, such as a venv's python), the install of the {@link #command()}'s
 *     executable when it is an absolute path outside all that (the prefix above its {@code bin}
 *     dir, e.g. {@code /opt/agent}), and the {@link #readOnlyPaths()}.</li>
 *   <li><b>Network</b>: by default only loopback, where the run's model endpoint (the metering
 *     proxy, whose URL the adapter got in its {@link ResolvedProvider}) answers; no DNS, no other
 *     host. A run or runner may choose {@link SandboxNetwork#HOST} instead.</li>
 *   <li><b>Processes</b>: its own PID namespace (no host process is visible or signalable),
 *     killed with the runner. A stop sends {@code TERM} to the harness's processes and waits the
 *     runner's term grace before killing what is left.</li>
 * </ul>
 * An adapter whose CLI must read or write something else (a system-wide install outside the
 * tools dir, a cache it was told to use) declares it with {@link Builder#readOnlyPath(Path)} or
 * {@link Builder#writablePath(Path)}; unconfined runs ignore both.
 *
 * @param command the argv, executable first
 * @param environment variables to set, on top of the environment core starts every run's process
 *     from (a short allowlist of the runner's environment plus what the caller passed; see
 *     {@link HarnessContext#environment()}): a variable the CLI needs is set here
 * @param removeEnvironment inherited variables to remove; an entry ending in {@code *} removes
 *     every variable with that prefix (e.g. {@code ANTHROPIC_*}); variables in {@code
 *     environment} are set after removal
 * @param files files to write before start, by path relative to the run's scratch dir
 * @param stdin text written to the process's stdin, which is then closed; {@code null} means
 *     stdin is {@code /dev/null}
 * @param workingDir the process's working directory
 * @param secretEnvironment names of variables in {@code environment} whose values are secret:
 *     they are replaced by {@code ***} wherever the library writes output, events or meta
 * @param readOnlyPaths absolute paths (files or directories) the sandbox shows read-only at their
 *     own path, besides what it always shows; missing ones are skipped
 * @param writablePaths absolute paths the sandbox shows read-write at their own path; missing
 *     ones are skipped
 */
public record Invocation(
        List<String> command,
        Map<String, String> environment,
        Set<String> removeEnvironment,
        Map<String, String> files,
        String stdin,
        Path workingDir,
        Set<String> secretEnvironment,
        List<Path> readOnlyPaths,
        List<Path> writablePaths) {

    /**
     * Checks the parts and copies the collections.
     *
     * @param command the argv, executable first; not empty
     * @param environment variables to set
     * @param removeEnvironment inherited variables (or {@code PREFIX*} patterns) to remove
     * @param files files to write before start, by path relative to the scratch dir
     * @param stdin text for stdin, or {@code null} for {@code /dev/null}
     * @param workingDir the process's working directory
     * @param secretEnvironment names of variables in {@code environment} whose values are secret
     * @param readOnlyPaths absolute paths the sandbox shows read-only
     * @param writablePaths absolute paths the sandbox shows read-write
     * @throws IllegalArgumentException for an empty command, a file path outside the scratch dir,
     *     or a relative sandbox path
     */
    public Invocation {
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command must name an executable");
        }
        environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
        removeEnvironment = Set.copyOf(Objects.requireNonNull(removeEnvironment, "removeEnvironment"));
        files = Map.copyOf(Objects.requireNonNull(files, "files"));
        for (String rel : files.keySet()) {
            Path p = Path.of(rel);
            if (p.isAbsolute() || p.normalize().startsWith("..")) {
                throw new IllegalArgumentException("file path must be relative to the scratch dir: " + rel);
            }
        }
        Objects.requireNonNull(workingDir, "workingDir");
        secretEnvironment = Set.copyOf(Objects.requireNonNull(secretEnvironment, "secretEnvironment"));
        readOnlyPaths = absolute(readOnlyPaths, "readOnlyPaths");
        writablePaths = absolute(writablePaths, "writablePaths");
    }

    /**
     * An invocation that asks the sandbox for no path of its own (the constructor before {@link
     * #readOnlyPaths()} and {@link #writablePaths()}).
     *
     * @param command the argv, executable first; not empty
     * @param environment variables to set
     * @param removeEnvironment inherited variables (or {@code PREFIX*} patterns) to remove
     * @param files files to write before start, by path relative to the scratch dir
     * @param stdin text for stdin, or {@code null} for {@code /dev/null}
     * @param workingDir the process's working directory
     * @param secretEnvironment names of variables in {@code environment} whose values are secret
     */
    public Invocation(List<String> command, Map<String, String> environment, Set<String> removeEnvironment,
            Map<String, String> files, String stdin, Path workingDir, Set<String> secretEnvironment) {
        this(command, environment, removeEnvironment, files, stdin, workingDir, secretEnvironment, List.of(), List.of());
    }

    private static List<Path> absolute(List<Path> paths, String what) {
        List<Path> out = new ArrayList<>();
        for (Path p : Objects.requireNonNull(paths, what)) {
            Objects.requireNonNull(p, what);
            if (!p.isAbsolute()) {
                throw new IllegalArgumentException(what + " must be absolute: " + p);
            }
            out.add(p.normalize());
        }
        return List.copyOf(out);
    }

    /**
     * The text for stdin, when there is one.
     *
     * @return the text; empty when stdin is {@code /dev/null}
     */
    public Optional<String> stdinText() {
        return Optional.ofNullable(stdin);
    }

    /**
     * The values of {@link #secretEnvironment()} variables, for redaction.
     *
     * @return the non-empty secret values
     */
    public Set<String> secretValues() {
        Set<String> out = new LinkedHashSet<>();
        for (String name : secretEnvironment) {
            String v = environment.get(name);
            if (v != null && !v.isEmpty()) {
                out.add(v);
            }
        }
        return out;
    }

    /**
     * Whether an inherited variable is removed by {@link #removeEnvironment()}.
     *
     * @param variable an inherited variable's name
     * @return whether it is removed
     */
    public boolean removes(String variable) {
        for (String pattern : removeEnvironment) {
            if (pattern.endsWith("*")
                    ? variable.startsWith(pattern.substring(0, pattern.length() - 1))
                    : variable.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A builder for a command.
     *
     * @param executable the executable (absolute path or bare name)
     * @param args its first arguments
     * @return a new builder
     */
    public static Builder builder(String executable, String... args) {
        Builder b = new Builder();
        b.command.add(Objects.requireNonNull(executable, "executable"));
        b.command.addAll(List.of(args));
        return b;
    }

    /** Builds an {@link Invocation}; {@code workingDir} is required. */
    public static final class Builder {
        private final List<String> command = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final Set<String> removeEnvironment = new LinkedHashSet<>();
        private final Map<String, String> files = new LinkedHashMap<>();
        private final Set<String> secretEnvironment = new LinkedHashSet<>();
        private final List<Path> readOnlyPaths = new ArrayList<>();
        private final List<Path> writablePaths = new ArrayList<>();
        private String stdin;
        private Path workingDir;

        private Builder() {}

        /**
         * Appends an argument.
         *
         * @param a the argument
         * @return this builder
         */
        public Builder arg(String a) {
            command.add(Objects.requireNonNull(a, "arg"));
            return this;
        }

        /**
         * Appends arguments.
         *
         * @param as the arguments
         * @return this builder
         */
        public Builder args(String... as) {
            for (String a : as) {
                arg(a);
            }
            return this;
        }

        /**
         * Sets a variable.
         *
         * @param name the variable's name
         * @param value its value
         * @return this builder
         */
        public Builder env(String name, String value) {
            environment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, name));
            return this;
        }

        /**
         * Sets a variable whose value is secret (redacted wherever the library writes).
         *
         * @param name the variable's name
         * @param value its secret value
         * @return this builder
         */
        public Builder secretEnv(String name, String value) {
            env(name, value);
            secretEnvironment.add(name);
            return this;
        }

        /**
         * Removes an inherited variable, or every one with a prefix.
         *
         * @param nameOrPrefixStar a name, or a prefix followed by {@code *}
         * @return this builder
         */
        public Builder removeEnv(String nameOrPrefixStar) {
            removeEnvironment.add(Objects.requireNonNull(nameOrPrefixStar, "name"));
            return this;
        }

        /**
         * Writes a file before start.
         *
         * @param relativePath the path relative to the run's scratch dir
         * @param content the file's text
         * @return this builder
         */
        public Builder file(String relativePath, String content) {
            files.put(Objects.requireNonNull(relativePath, "relativePath"), Objects.requireNonNull(content, "content"));
            return this;
        }

        /**
         * Sets the text written to stdin.
         *
         * @param text the text, or {@code null} for {@code /dev/null}
         * @return this builder
         */
        public Builder stdin(String text) {
            this.stdin = text;
            return this;
        }

        /**
         * Sets the working directory (required).
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder workingDir(Path dir) {
            this.workingDir = Objects.requireNonNull(dir, "workingDir");
            return this;
        }

        /**
         * Shows a path the CLI must read in the sandbox, read-only at its own path (see the class
         * comment for what it always sees); ignored when the run is not confined.
         *
         * @param path an absolute file or directory; skipped at run time when missing
         * @return this builder
         * @throws IllegalArgumentException when the path is relative
         */
        public Builder readOnlyPath(Path path) {
            readOnlyPaths.add(absolute(List.of(Objects.requireNonNull(path, "path")), "readOnlyPath").get(0));
            return this;
        }

        /**
         * Shows a path the CLI must write in the sandbox, read-write at its own path; ignored
         * when the run is not confined.
         *
         * @param path an absolute file or directory; skipped at run time when missing
         * @return this builder
         * @throws IllegalArgumentException when the path is relative
         */
        public Builder writablePath(Path path) {
            writablePaths.add(absolute(List.of(Objects.requireNonNull(path, "path")), "writablePath").get(0));
            return this;
        }

        /**
         * Builds the invocation.
         *
         * @return the invocation
         * @throws IllegalStateException when no working directory was set
         */
        public Invocation build() {
            if (workingDir == null) {
                throw new IllegalStateException("Invocation needs a working dir: call workingDir(..)");
            }
            return new Invocation(command, environment, removeEnvironment, files, stdin, workingDir, secretEnvironment,
                    readOnlyPaths, writablePaths);
        }
    }
}
