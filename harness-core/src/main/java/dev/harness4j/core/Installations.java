package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessNotInstalledException;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.core.internal.VersionProbe;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.process.RunEnvironment;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds harness CLIs and asks their versions. Looks, in order, at a path configured for the
 * harness id, the tools cache that {@code scripts/install-clis.sh} fills ({@code
 * $HARNESS4J_TOOLS/bin}, default {@code ~/.cache/harness4j/tools/bin}), then {@code PATH}.
 * A version probe runs with {@code HOME}, the XDG base directories and {@code TMPDIR} in a
 * throwaway directory deleted afterwards: some CLIs write their state even for {@code --version}.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * Installations installs = Installations.builder().path("aider", Path.of("/opt/aider/bin/aider")).build();
 * Path claude = installs.require(registry.require("claude-code"));   // throws with the install hint
 * }</pre>
 */
public final class Installations {
    /** How long a version probe may take before it is killed: 30 s (some CLIs start slowly). */
    public static final Duration DEFAULT_VERSION_TIMEOUT = Duration.ofSeconds(30);

    /** The environment variable naming the tools cache. */
    public static final String TOOLS_ENV = "HARNESS4J_TOOLS";

    private final Map<String, Path> configured;
    private final List<Path> searchDirs;
    private final Duration versionTimeout;
    private final RunEnvironment environment;
    private final Map<String, Map<String, Object>> identities = new ConcurrentHashMap<>();

    private Installations(Builder b) {
        this.configured = Map.copyOf(b.configured);
        this.searchDirs = List.copyOf(b.searchDirs);
        this.versionTimeout = b.versionTimeout;
        this.environment = b.environment;
    }

    /** The default lookup: the tools cache, then {@code PATH}. */
    public static Installations defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The tools cache's {@code bin} directory: {@code $HARNESS4J_TOOLS/bin} or {@code ~/.cache/harness4j/tools/bin}. */
    public static Path defaultToolsBin() {
        String env = System.getenv(TOOLS_ENV);
        Path tools = env != null && !env.isBlank()
                ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "harness4j", "tools");
        return tools.resolve("bin");
    }

    /** Where the harness's binary is, without running it. */
    public Optional<Path> locate(Harness harness) {
        InstallInfo info = harness.installInfo();
        Path explicit = configured.get(harness.id());
        if (explicit != null) {
            return Files.isExecutable(explicit) ? Optional.of(explicit.toAbsolutePath()) : Optional.empty();
        }
        Path asGiven = Path.of(info.binary());
        if (asGiven.isAbsolute()) {
            return Files.isExecutable(asGiven) ? Optional.of(asGiven) : Optional.empty();
        }
        for (Path dir : searchDirs) {
            Path candidate = dir.resolve(info.binary());
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    /**
     * The harness's executable.
     *
     * @throws HarnessNotInstalledException with the adapter's install hint when it is missing
     */
    public Path require(Harness harness) {
        return locate(harness).orElseThrow(() -> new HarnessNotInstalledException(
                harness.id(), harness.installInfo().binary(), harness.installInfo().installHint(),
                describeMiss(harness)));
    }

    /** Locates the binary and runs its version probe. Never throws for a missing binary. */
    public Installation check(Harness harness) {
        InstallInfo info = harness.installInfo();
        Optional<Path> exe = locate(harness);
        String version = null;
        if (exe.isPresent()) {
            version = probeVersion(exe.get(), info.versionArgs()).orElse(null);
        }
        return new Installation(harness.id(), info.binary(), exe.orElse(null), version, info.installHint());
    }

    /**
     * What exactly runs for {@code executable}, as {@code meta.json}'s {@code cli} section records
     * it: {@code path} (as located), {@code real_path}, {@code sha256} of the real file, and
     * {@code version} (the version probe's first line, or {@code null}). Computed once per binary
     * (real path, size, modification time) for this instance's lifetime; never throws.
     *
     * @param harness the adapter whose binary it is (for the version probe's arguments)
     * @param executable the located binary
     * @return the identity; unreadable parts are {@code null}
     */
    public Map<String, Object> identify(Harness harness, Path executable) {
        Path real;
        String key;
        try {
            real = executable.toRealPath();
            key = real + "\0" + Files.size(real) + "\0" + Files.getLastModifiedTime(real);
        } catch (IOException e) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", executable.toString());
            m.put("real_path", null);
            m.put("sha256", null);
            m.put("version", null);
            return Collections.unmodifiableMap(m);
        }
        Map<String, Object> known = identities.get(key);
        if (known != null) {
            return known;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", executable.toString());
        m.put("real_path", real.toString());
        m.put("sha256", sha256(real));
        m.put("version", probeVersion(executable, harness.installInfo().versionArgs()).orElse(null));
        Map<String, Object> identity = Collections.unmodifiableMap(m);
        Map<String, Object> raced = identities.putIfAbsent(key, identity);
        return raced != null ? raced : identity;
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) != -1) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private String describeMiss(Harness harness) {
        Path explicit = configured.get(harness.id());
        if (explicit != null) {
            return "the configured path " + explicit + " is not an executable file";
        }
        return "'" + harness.installInfo().binary() + "' was not found in " + searchDirs;
    }

    /** The version probe, in a throwaway home so that no CLI writes the user's (see {@link VersionProbe}). */
    private Optional<String> probeVersion(Path exe, List<String> args) {
        return VersionProbe.run(exe, args, versionTimeout, environment.base());
    }

    /** Builds {@link Installations}. */
    public static final class Builder {
        private final Map<String, Path> configured = new LinkedHashMap<>();
        private final List<Path> searchDirs = new ArrayList<>();
        private Duration versionTimeout = DEFAULT_VERSION_TIMEOUT;
        private boolean useDefaults = true;
        private RunEnvironment environment = RunEnvironment.of(System.getenv());

        private Builder() {}

        /** Uses exactly this executable for the harness id (no search). */
        public Builder path(String harnessId, Path executable) {
            configured.put(Objects.requireNonNull(harnessId, "harnessId"), Objects.requireNonNull(executable, "executable"));
            return this;
        }

        /** Searches this directory before the tools cache and {@code PATH}. */
        public Builder searchDir(Path dir) {
            searchDirs.add(Objects.requireNonNull(dir, "dir"));
            return this;
        }

        /** Searches only the directories given with {@link #searchDir}, not the tools cache or {@code PATH}. */
        public Builder noDefaultSearch() {
            useDefaults = false;
            return this;
        }

        /**
         * Exactly the variables a version probe starts with (all of them, as given), instead of
         * {@link RunEnvironment}'s allowlist of the JVM's environment; {@code HOME}, the XDG base
         * directories and {@code TMPDIR} are replaced by a throwaway home either way.
         */
        public Builder environment(Map<String, String> variables) {
            this.environment = RunEnvironment.of(Map.of()).with(variables);
            return this;
        }

        /**
         * The rule a version probe's environment is built by (a runner gives the one its runs
         * use); default the allowlist of the JVM's environment ({@link RunEnvironment}).
         */
        public Builder runEnvironment(RunEnvironment rule) {
            this.environment = Objects.requireNonNull(rule, "rule");
            return this;
        }

        public Builder versionTimeout(Duration timeout) {
            this.versionTimeout = Checks.positive(timeout, "versionTimeout");
            return this;
        }

        public Installations build() {
            if (useDefaults) {
                searchDirs.add(defaultToolsBin());
                String path = System.getenv("PATH");
                if (path != null) {
                    for (String entry : path.split(File.pathSeparator)) {
                        if (!entry.isBlank()) {
                            searchDirs.add(Path.of(entry));
                        }
                    }
                }
            }
            return new Installations(this);
        }
    }
}
