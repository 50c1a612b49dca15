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
 * @param environment variables to set (on top of the inherited environment)
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

    public Optional<String> stdinText() {
        return Optional.ofNullable(stdin);
    }

    /** The values of {@link #secretEnvironment()} variables, for redaction. */
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

    /** Whether an inherited variable is removed by {@link #removeEnvironment()}. */
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

        public Builder arg(String a) {
            command.add(Objects.requireNonNull(a, "arg"));
            return this;
        }

        public Builder args(String... as) {
            for (String a : as) {
                arg(a);
            }
            return this;
        }

        public Builder env(String name, String value) {
            environment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, name));
            return this;
        }

        /** Sets a variable whose value is secret (redacted wherever the library writes). */
        public Builder secretEnv(String name, String value) {
            env(name, value);
            secretEnvironment.add(name);
            return this;
        }

        public Builder removeEnv(String nameOrPrefixStar) {
            removeEnvironment.add(Objects.requireNonNull(nameOrPrefixStar, "name"));
            return this;
        }

        public Builder file(String relativePath, String content) {
            files.put(Objects.requireNonNull(relativePath, "relativePath"), Objects.requireNonNull(content, "content"));
            return this;
        }

        public Builder stdin(String text) {
            this.stdin = text;
            return this;
        }

        public Builder workingDir(Path dir) {
            this.workingDir = Objects.requireNonNull(dir, "workingDir");
            return this;
        }

        public Invocation build() {
            if (workingDir == null) {
                throw new IllegalStateException("Invocation needs a working dir: call workingDir(..)");
            }
            return new Invocation(command, environment, removeEnvironment, files, stdin, workingDir, secretEnvironment);
        }
    }
}
