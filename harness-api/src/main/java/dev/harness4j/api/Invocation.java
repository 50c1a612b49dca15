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
 */
public record Invocation(
        List<String> command,
        Map<String, String> environment,
        Set<String> removeEnvironment,
        Map<String, String> files,
        String stdin,
        Path workingDir,
        Set<String> secretEnvironment) {

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
     * @throws IllegalArgumentException for an empty command or a file path outside the scratch dir
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
         * Builds the invocation.
         *
         * @return the invocation
         * @throws IllegalStateException when no working directory was set
         */
        public Invocation build() {
            if (workingDir == null) {
                throw new IllegalStateException("Invocation needs a working dir: call workingDir(..)");
            }
            return new Invocation(command, environment, removeEnvironment, files, stdin, workingDir, secretEnvironment);
        }
    }
}
