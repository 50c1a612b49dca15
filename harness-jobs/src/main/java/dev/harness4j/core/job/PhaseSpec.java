package dev.harness4j.core.job;

import dev.harness4j.api.Limits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One phase of a {@link JobPlan}: a prompt, run as one harness run in the job's workspace, with
 * its own {harness, provider, model} (each {@code null} takes the job's default).
 *
 * <pre>{@code
 * PhaseSpec build = PhaseSpec.builder("build", "Implement the parser described in PLAN.md")
 *         .dependsOn("design").model("claude-sonnet-4-5")
 *         .fallback("openrouter", "anthropic/claude-sonnet-4.5")
 *         .build();
 * }</pre>
 *
 * @param id the phase's id, unique in its plan ({@code [A-Za-z0-9][A-Za-z0-9_-]{0,39}})
 * @param prompt what the agent is asked to do in this phase
 * @param harness the harness id, or {@code null} for the job's
 * @param provider the provider, or {@code null} for the job's
 * @param model the model, or {@code null} for the job's (or the provider's default)
 * @param dependsOn the phases that must complete before this one (empty: see {@link JobPlan})
 * @param fallbacks providers tried in order when this phase's provider is rate-limited or out of
 *     quota beyond {@link JobPlan#maxQuotaWait()}
 * @param limits the guard's limits for the phase's run
 * @param maxAttempts how many runs a failing phase gets before it fails for good (a rate limit
 *     costs none), at least 1
 * @param options harness-specific options, as {@link dev.harness4j.api.RunSpec#options()}
 * @param continueSession whether the phase's first run continues the agent's session of the run
 *     that completed the phase it depends on (exactly one), in that run's workspace ({@code
 *     HarnessRunner.followUp}); the same harness, a runner built with {@code keepWorkspace}. When
 *     that session cannot be continued (not kept, expired, a harness that cannot resume), and for
 *     every later attempt, the phase runs afresh from the job's head, with an event saying why
 * @param mcpServers the MCP servers the phase's runs give the agent ({@code RunSpec.mcpServer}), in
 *     order, names unique; a harness without MCP makes the plan refuse the phase
 */
public record PhaseSpec(String id, String prompt, String harness, String provider, String model,
        List<String> dependsOn, List<Fallback> fallbacks, Limits limits, int maxAttempts, Map<String, String> options,
        boolean continueSession, List<dev.harness4j.api.McpServer> mcpServers) {

    /** The default of {@link #maxAttempts()}: 1, a failed run fails the phase. */
    public static final int DEFAULT_MAX_ATTEMPTS = 1;

    /**
     * A provider to switch to.
     *
     * @param provider the provider's name
     * @param model the model there, or {@code null} for the phase's model
     */
    public record Fallback(String provider, String model) {
        /** Checks the provider. */
        public Fallback {
            Objects.requireNonNull(provider, "provider");
            if (provider.isBlank()) {
                throw new IllegalArgumentException("a fallback's provider must not be blank");
            }
        }
    }

    /** Checks the required parts and copies the collections; the plan checks the rest. */
    public PhaseSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(prompt, "prompt");
        dependsOn = List.copyOf(dependsOn);
        fallbacks = List.copyOf(fallbacks);
        Objects.requireNonNull(limits, "limits");
        options = Map.copyOf(options);
        mcpServers = List.copyOf(mcpServers);
        if (mcpServers.stream().map(dev.harness4j.api.McpServer::name).distinct().count() < mcpServers.size()) {
            throw new IllegalArgumentException("phase " + id + " names two MCP servers alike; names must be unique");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
    }

    /**
     * A phase without MCP servers: the constructor before {@link #mcpServers()} existed.
     *
     * @param id the phase's id
     * @param prompt what the agent is asked to do
     * @param harness the harness id, or {@code null}
     * @param provider the provider, or {@code null}
     * @param model the model, or {@code null}
     * @param dependsOn the phases that must complete first
     * @param fallbacks providers tried when rate-limited
     * @param limits the guard's limits
     * @param maxAttempts runs a failing phase gets
     * @param options harness-specific options
     * @param continueSession whether the first run continues the session before
     */
    public PhaseSpec(String id, String prompt, String harness, String provider, String model, List<String> dependsOn,
            List<Fallback> fallbacks, Limits limits, int maxAttempts, Map<String, String> options,
            boolean continueSession) {
        this(id, prompt, harness, provider, model, dependsOn, fallbacks, limits, maxAttempts, options, continueSession,
                List.of());
    }

    /**
     * A phase that runs afresh (no {@link #continueSession()}): the constructor before it existed.
     *
     * @param id the phase's id
     * @param prompt what the agent is asked to do
     * @param harness the harness id, or {@code null}
     * @param provider the provider, or {@code null}
     * @param model the model, or {@code null}
     * @param dependsOn the phases that must complete first
     * @param fallbacks providers tried when rate-limited
     * @param limits the guard's limits
     * @param maxAttempts runs a failing phase gets
     * @param options harness-specific options
     */
    public PhaseSpec(String id, String prompt, String harness, String provider, String model, List<String> dependsOn,
            List<Fallback> fallbacks, Limits limits, int maxAttempts, Map<String, String> options) {
        this(id, prompt, harness, provider, model, dependsOn, fallbacks, limits, maxAttempts, options, false);
    }

    /** A builder for a phase with this id and prompt. */
    public static Builder builder(String id, String prompt) {
        return new Builder(id, prompt);
    }

    /** Builds a {@link PhaseSpec}. */
    public static final class Builder {
        private final String id;
        private final String prompt;
        private String harness;
        private String provider;
        private String model;
        private final List<String> dependsOn = new ArrayList<>();
        private final List<Fallback> fallbacks = new ArrayList<>();
        private Limits limits = Limits.NONE;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private final Map<String, String> options = new LinkedHashMap<>();
        private boolean continueSession;
        private final List<dev.harness4j.api.McpServer> mcpServers = new ArrayList<>();

        private Builder(String id, String prompt) {
            this.id = Objects.requireNonNull(id, "id");
            this.prompt = Objects.requireNonNull(prompt, "prompt");
        }

        /** The harness id; default the job's. */
        public Builder harness(String value) {
            this.harness = value;
            return this;
        }

        /** The provider; default the job's. */
        public Builder provider(String value) {
            this.provider = value;
            return this;
        }

        /** The model; default the job's. */
        public Builder model(String value) {
            this.model = value;
            return this;
        }

        /** Phases that must complete first. */
        public Builder dependsOn(String... ids) {
            for (String d : ids) {
                dependsOn.add(Objects.requireNonNull(d, "dependency"));
            }
            return this;
        }

        /** Adds a fallback provider, tried after the ones added before. */
        public Builder fallback(String provider, String model) {
            fallbacks.add(new Fallback(provider, model));
            return this;
        }

        /** The guard's limits; default {@link Limits#NONE}. */
        public Builder limits(Limits value) {
            this.limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        /** Runs a failing phase gets; default {@link #DEFAULT_MAX_ATTEMPTS}. */
        public Builder maxAttempts(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, was " + value);
            }
            this.maxAttempts = value;
            return this;
        }

        /** A harness-specific option. */
        public Builder option(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Continues the session of the phase this one depends on ({@link PhaseSpec#continueSession()}); default false. */
        public Builder continueSession(boolean value) {
            this.continueSession = value;
            return this;
        }

        /** Adds an MCP server the phase's runs give the agent ({@link PhaseSpec#mcpServers()}). */
        public Builder mcpServer(dev.harness4j.api.McpServer value) {
            mcpServers.add(Objects.requireNonNull(value, "value"));
            return this;
        }

        public PhaseSpec build() {
            return new PhaseSpec(id, prompt, harness, provider, model, dependsOn, fallbacks, limits, maxAttempts,
                    options, continueSession, mcpServers);
        }
    }
}
