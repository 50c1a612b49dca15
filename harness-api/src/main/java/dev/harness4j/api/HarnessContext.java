package dev.harness4j.api;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an adapter needs to translate one run into an {@link Invocation}. Built by
 * harness-core; adapter tests build it with {@link #builder()}.
 *
 * @param runId the run's unique id
 * @param prompt the full prompt (already framed by the caller)
 * @param provider the resolved provider, carrying the resolved model
 * @param workspace the isolated checkout the harness works in (absolute)
 * @param scratchDir a per-run directory outside the workspace for config, state and prompt
 *     files; files the invocation declares are written here
 * @param executable the CLI's resolved executable (absolute path or a bare name on {@code PATH})
 * @param limits the run's limits (for CLIs that take e.g. a max-turns flag)
 * @param systemPrompt text to append to the system prompt, or {@code null}
 * @param options harness-specific options from the run spec
 * @param environment the environment the process would inherit, so an adapter can decide what
 *     to remove; never written anywhere by the library
 * @param runningAsRoot whether the JVM runs as root (some CLIs refuse flags for root)
 */
public record HarnessContext(
        String runId,
        String prompt,
        ResolvedProvider provider,
        Path workspace,
        Path scratchDir,
        String executable,
        Limits limits,
        String systemPrompt,
        Map<String, String> options,
        Map<String, String> environment,
        boolean runningAsRoot) {

    public HarnessContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(workspace, "workspace");
        Objects.requireNonNull(scratchDir, "scratchDir");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(limits, "limits");
        options = Map.copyOf(Objects.requireNonNull(options, "options"));
        environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    }

    /** The model to ask the CLI for: the provider's resolved model. */
    public String model() {
        return provider.model();
    }

    /** A harness-specific option, if the run spec set it. */
    public Optional<String> option(String key) {
        return Optional.ofNullable(options.get(key));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link HarnessContext}; mostly for adapter tests. */
    public static final class Builder {
        private String runId = "run-test";
        private String prompt;
        private ResolvedProvider provider;
        private Path workspace;
        private Path scratchDir;
        private String executable;
        private Limits limits = Limits.NONE;
        private String systemPrompt;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private boolean runningAsRoot;

        private Builder() {}

        public Builder runId(String v) { this.runId = v; return this; }
        public Builder prompt(String v) { this.prompt = v; return this; }
        public Builder provider(ResolvedProvider v) { this.provider = v; return this; }
        public Builder workspace(Path v) { this.workspace = v; return this; }
        public Builder scratchDir(Path v) { this.scratchDir = v; return this; }
        public Builder executable(String v) { this.executable = v; return this; }
        public Builder limits(Limits v) { this.limits = v; return this; }
        public Builder systemPrompt(String v) { this.systemPrompt = v; return this; }
        public Builder options(Map<String, String> v) { options.putAll(v); return this; }
        public Builder option(String k, String v) { options.put(k, v); return this; }
        public Builder environment(Map<String, String> v) { environment.putAll(v); return this; }
        public Builder runningAsRoot(boolean v) { this.runningAsRoot = v; return this; }

        public HarnessContext build() {
            return new HarnessContext(runId, prompt, provider, workspace, scratchDir, executable,
                    limits, systemPrompt, options, environment, runningAsRoot);
        }
    }
}
