package dev.harness4j.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What to run: a {@code {provider, model, harness}} triple, a prompt, and the baseline
 * repository to work on.
 *
 * <pre>{@code
 * RunSpec spec = RunSpec.builder("claude-code", "anthropic")
 *         .model("claude-sonnet-4-5")
 *         .prompt("Add a README")
 *         .baseline(Path.of("/src/my-repo"))
 *         .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(20)))
 *         .build();
 * }</pre>
 *
 * @param harness the harness id, e.g. {@code claude-code}
 * @param provider the provider name, resolved by a {@link ProviderResolver}
 * @param model the requested model, or {@code null} for the provider's default model
 * @param prompt the task given to the agent
 * @param baseline the repository to isolate; never modified
 * @param ref the commit-ish to start from, or {@code null} for the baseline's current branch
 * @param isolation how the workspace is made
 * @param limits the guard's limits
 * @param systemPrompt text appended to the harness's system prompt where it supports that, or
 *     {@code null}
 * @param task a short label for the task (bench matrices), or {@code null}
 * @param options harness-specific options (documented by each adapter), e.g. aider's {@code
 *     edit-format}
 * @param trial which repetition of the same task, harness, provider and model this run is
 *     (1 for the first; bench trials count up), at least 1
 * @param sandboxNetwork what the run may reach when the runner confines it, or {@code null} for
 *     the runner's default ({@link SandboxNetwork#HOST} for a task that installs packages)
 * @param mcpServers the MCP servers the agent gets for this run, in order, their names unique;
 *     empty for none (a harness that does not {@linkplain Harness#supportsMcp() support MCP}
 *     refuses a run with any)
 */
public record RunSpec(
        String harness,
        String provider,
        String model,
        String prompt,
        Path baseline,
        String ref,
        Isolation isolation,
        Limits limits,
        String systemPrompt,
        String task,
        Map<String, String> options,
        int trial,
        SandboxNetwork sandboxNetwork,
        List<McpServer> mcpServers) {

    /**
     * Checks the parts and copies the options.
     *
     * @param harness the harness id, not blank
     * @param provider the provider name, not blank
     * @param model the requested model, or {@code null} for the provider's default (never blank)
     * @param prompt the task given to the agent
     * @param baseline the repository to isolate
     * @param ref the commit-ish to start from, or {@code null}
     * @param isolation how the workspace is made
     * @param limits the guard's limits
     * @param systemPrompt text appended to the system prompt, or {@code null}
     * @param task a short label for the task, or {@code null}
     * @param options harness-specific options
     * @param trial which repetition this run is, at least 1
     * @param sandboxNetwork what the run may reach when confined, or {@code null} for the runner's default
     * @param mcpServers the MCP servers the agent gets
     * @throws IllegalArgumentException for a blank harness, provider or model, or two MCP servers
     *     of one name
     */
    public RunSpec {
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(isolation, "isolation");
        Objects.requireNonNull(limits, "limits");
        options = Map.copyOf(Objects.requireNonNull(options, "options"));
        if (harness.isBlank()) {
            throw new IllegalArgumentException("harness must not be blank");
        }
        if (provider.isBlank()) {
            throw new IllegalArgumentException("provider must not be blank");
        }
        if (trial < 1) {
            throw new IllegalArgumentException("trial must be >= 1, was " + trial);
        }
        if (model != null && model.isBlank()) {
            throw new IllegalArgumentException("model must be null (provider default) or non-blank");
        }
        mcpServers = List.copyOf(Objects.requireNonNull(mcpServers, "mcpServers"));
        Set<String> names = new HashSet<>();
        for (McpServer m : mcpServers) {
            if (!names.add(m.name())) {
                throw new IllegalArgumentException("two MCP servers are named '" + m.name()
                        + "': each server of a run needs a name of its own");
            }
        }
    }

    /**
     * A spec without MCP servers (the constructor before {@link #mcpServers()}).
     *
     * @param harness the harness id, not blank
     * @param provider the provider name, not blank
     * @param model the requested model, or {@code null} for the provider's default
     * @param prompt the task given to the agent
     * @param baseline the repository to isolate
     * @param ref the commit-ish to start from, or {@code null}
     * @param isolation how the workspace is made
     * @param limits the guard's limits
     * @param systemPrompt text appended to the system prompt, or {@code null}
     * @param task a short label for the task, or {@code null}
     * @param options harness-specific options
     * @param trial which repetition this run is, at least 1
     * @param sandboxNetwork what the run may reach when confined, or {@code null} for the runner's default
     */
    public RunSpec(String harness, String provider, String model, String prompt, Path baseline, String ref,
            Isolation isolation, Limits limits, String systemPrompt, String task, Map<String, String> options,
            int trial, SandboxNetwork sandboxNetwork) {
        this(harness, provider, model, prompt, baseline, ref, isolation, limits, systemPrompt, task, options, trial,
                sandboxNetwork, List.of());
    }

    /**
     * A builder for a harness and a provider.
     *
     * @param harness the harness id, e.g. {@code claude-code}
     * @param provider the provider name
     * @return a new builder (isolation {@code CLONE}, no limits)
     */
    public static Builder builder(String harness, String provider) {
        return new Builder(harness, provider);
    }

    /**
     * A builder holding this spec's values, to derive a variant.
     *
     * @return a new builder with this spec's values
     */
    public Builder toBuilder() {
        Builder b = new Builder(harness, provider);
        b.model = model;
        b.prompt = prompt;
        b.baseline = baseline;
        b.ref = ref;
        b.isolation = isolation;
        b.limits = limits;
        b.systemPrompt = systemPrompt;
        b.task = task;
        b.options.putAll(options);
        b.trial = trial;
        b.sandboxNetwork = sandboxNetwork;
        b.mcpServers.addAll(mcpServers);
        return b;
    }

    /**
     * A copy for another model.
     *
     * @param value the model, or {@code null} for the provider's default
     * @return the copy
     */
    public RunSpec withModel(String value) {
        return toBuilder().model(value).build();
    }

    /**
     * A copy with another prompt.
     *
     * @param value the prompt
     * @return the copy
     */
    public RunSpec withPrompt(String value) {
        return toBuilder().prompt(value).build();
    }

    /** Builds a {@link RunSpec}; {@code prompt} and {@code baseline} are required. */
    public static final class Builder {
        private final String harness;
        private final String provider;
        private String model;
        private String prompt;
        private Path baseline;
        private String ref;
        private Isolation isolation = Isolation.CLONE;
        private Limits limits = Limits.NONE;
        private String systemPrompt;
        private String task;
        private final Map<String, String> options = new LinkedHashMap<>();
        private int trial = 1;
        private SandboxNetwork sandboxNetwork;
        private final List<McpServer> mcpServers = new ArrayList<>();

        private Builder(String harness, String provider) {
            this.harness = Objects.requireNonNull(harness, "harness");
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * Sets {@link RunSpec#model()}.
         *
         * @param value the model, or {@code null} for the provider's default
         * @return this builder
         */
        public Builder model(String value) {
            this.model = value;
            return this;
        }

        /**
         * Sets {@link RunSpec#prompt()}.
         *
         * @param value the prompt (required)
         * @return this builder
         */
        public Builder prompt(String value) {
            this.prompt = Objects.requireNonNull(value, "prompt");
            return this;
        }

        /**
         * Sets {@link RunSpec#baseline()}.
         *
         * @param value the baseline repository (required)
         * @return this builder
         */
        public Builder baseline(Path value) {
            this.baseline = Objects.requireNonNull(value, "baseline");
            return this;
        }

        /**
         * Sets {@link RunSpec#ref()}.
         *
         * @param value the commit-ish, or {@code null} for the current branch
         * @return this builder
         */
        public Builder ref(String value) {
            this.ref = value;
            return this;
        }

        /**
         * Sets {@link RunSpec#isolation()}.
         *
         * @param value the isolation (default {@code CLONE})
         * @return this builder
         */
        public Builder isolation(Isolation value) {
            this.isolation = Objects.requireNonNull(value, "isolation");
            return this;
        }

        /**
         * Sets {@link RunSpec#limits()}.
         *
         * @param value the limits (default {@link Limits#NONE})
         * @return this builder
         */
        public Builder limits(Limits value) {
            this.limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        /**
         * Sets {@link RunSpec#systemPrompt()}.
         *
         * @param value the text, or {@code null}
         * @return this builder
         */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /**
         * Sets {@link RunSpec#task()}.
         *
         * @param value the label, or {@code null}
         * @return this builder
         */
        public Builder task(String value) {
            this.task = value;
            return this;
        }

        /**
         * Sets which repetition of the same task, harness, provider and model this run is.
         *
         * @param value 1 for the first (the default), counting up
         * @return this builder
         */
        public Builder trial(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("trial must be >= 1, was " + value);
            }
            this.trial = value;
            return this;
        }

        /**
         * Sets what the run may reach when the runner confines it in its sandbox.
         *
         * @param value the network, or {@code null} for the runner's default (the default)
         * @return this builder
         */
        public Builder sandboxNetwork(SandboxNetwork value) {
            this.sandboxNetwork = value;
            return this;
        }

        /**
         * Adds an MCP server the agent gets for this run ({@link RunSpec#mcpServers()}).
         *
         * @param value the server; its name must differ from the servers added before
         * @return this builder
         * @throws IllegalArgumentException when a server of that name was added already
         */
        public Builder mcpServer(McpServer value) {
            Objects.requireNonNull(value, "mcpServer");
            if (mcpServers.stream().anyMatch(m -> m.name().equals(value.name()))) {
                throw new IllegalArgumentException("an MCP server named '" + value.name()
                        + "' was added already: each server of a run needs a name of its own");
            }
            mcpServers.add(value);
            return this;
        }

        /**
         * Sets a harness-specific option.
         *
         * @param key the option's name
         * @param value its value
         * @return this builder
         */
        public Builder option(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Builds the spec.
         *
         * @return the spec
         * @throws IllegalStateException when prompt or baseline was not set
         */
        public RunSpec build() {
            if (prompt == null) {
                throw new IllegalStateException("RunSpec needs a prompt: call prompt(..)");
            }
            if (baseline == null) {
                throw new IllegalStateException("RunSpec needs a baseline repository: call baseline(..)");
            }
            return new RunSpec(harness, provider, model, prompt, baseline, ref, isolation, limits,
                    systemPrompt, task, options, trial, sandboxNetwork, mcpServers);
        }
    }
}
