package dev.harness4j.core.job;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A job: phases run one after the other in one workspace (a git repository of the job's own,
 * cloned from {@link #baseline()} at {@link #ref()}), each on the commits the phases before it
 * left, with their next-phase notes in front of its prompt.
 *
 * <p>Order: when no phase names a dependency the phases run in the order given, each after the
 * one before. When any does, the plan is a graph: a phase runs after every phase it names, in
 * dependency order (ties kept in the order given). A cycle, an unknown or duplicate id, or a
 * phase with no harness or provider (its own or the job's) is refused by {@link Builder#build()}
 * with every problem listed. {@link JobRunner#run} then checks the plan against its runner before
 * anything is written, again listing every problem: each phase's harness (known, installed), its
 * provider and every fallback provider (resolvable, and one the harness can run on: an API style
 * it speaks, not a CLI login it refuses) and their models (in the provider's catalogue; a model
 * no catalogue can confirm is a logged warning).
 *
 * <pre>{@code
 * JobPlan plan = JobPlan.builder(Path.of("/src/app"))
 *         .harness("claude-code").provider("anthropic").model("claude-sonnet-4-5")
 *         .phase(PhaseSpec.builder("design", "Write PLAN.md for a CSV importer").build())
 *         .phase(PhaseSpec.builder("build", "Implement PLAN.md").build())
 *         .phase(PhaseSpec.builder("test", "Add tests for the importer").build())
 *         .build();
 * }</pre>
 *
 * @param id the job's id, or {@code null} to have {@link JobRunner#run} make one
 * @param baseline the repository the job starts from; never modified
 * @param ref the commit-ish to start from, or {@code null} for the baseline's current branch
 * @param harness the default harness id, or {@code null}
 * @param provider the default provider, or {@code null}
 * @param model the default model, or {@code null} for the provider's default
 * @param phases the phases, in the order given
 * @param maxQuotaWait how long a phase may wait for a rate limit or quota to reset before a
 *     fallback provider (when the phase has one left) is tried instead
 * @param push whether the job's branch is pushed to the baseline's {@code origin} when it completes
 * @param task a label for the phases' results ({@code results/<task>/...}), or {@code null} for
 *     {@code job-<id>}
 * @param healthCheckTimeout how long one request of a provider's health check may take before a
 *     phase starts, or {@code null} when this job checks no provider's health (an endpoint with no
 *     health route); checks need {@link JobRunner.Builder#healthChecks} and skip a CLI-login
 *     provider (it has no endpoint)
 */
public record JobPlan(String id, Path baseline, String ref, String harness, String provider, String model,
        List<PhaseSpec> phases, Duration maxQuotaWait, boolean push, String task, Duration healthCheckTimeout) {

    /** The default {@link #maxQuotaWait()}: 15 minutes. */
    public static final Duration DEFAULT_MAX_QUOTA_WAIT = Duration.ofMinutes(15);

    /** The default {@link #healthCheckTimeout()}: 10 s per request, as {@code Providers.DEFAULT_HEALTH_TIMEOUT}. */
    public static final Duration DEFAULT_HEALTH_CHECK_TIMEOUT = Duration.ofSeconds(10);

    /** Checks the parts; {@link Builder#build()} checks the phases against each other. */
    public JobPlan {
        Objects.requireNonNull(baseline, "baseline");
        phases = List.copyOf(phases);
        Objects.requireNonNull(maxQuotaWait, "maxQuotaWait");
        if (healthCheckTimeout != null && (healthCheckTimeout.isZero() || healthCheckTimeout.isNegative())) {
            throw new IllegalArgumentException("healthCheckTimeout must be positive, was " + healthCheckTimeout);
        }
    }

    /** A builder for a job on this baseline repository. */
    public static Builder builder(Path baseline) {
        return new Builder(baseline);
    }

    /**
     * Reads a plan file (JSON; a relative {@code baseline} is resolved against the file's
     * directory). The format, with every field:
     *
     * <pre>{@code
     * {"id": "importer-1", "baseline": "../app", "ref": "main",
     *  "harness": "claude-code", "provider": "anthropic", "model": "claude-sonnet-4-5",
     *  "max_quota_wait_seconds": 900, "push": false, "task": "importer",
     *  "health_check": true, "health_check_timeout_seconds": 10,
     *  "phases": [
     *    {"id": "design", "prompt": "Write PLAN.md"},
     *    {"id": "build", "prompt": "Implement PLAN.md", "depends_on": ["design"],
     *     "harness": "opencode", "provider": "local", "model": "gemma4:31b", "max_attempts": 2,
     *     "fallbacks": [{"provider": "openrouter", "model": "anthropic/claude-sonnet-4.5"}],
     *     "limits": {"max_runtime_seconds": 1800, "inactivity_timeout_seconds": 300, "max_turns": 50,
     *                "max_tokens": 2000000, "max_cost_usd": 5.0, "max_model_requests": 400},
     *     "options": {}, "mcp_servers": [{"name": "tickets", "command": "tickets-mcp", "args": ["--ro"]}]}]}
     * }</pre>
     *
     * @throws InvalidJobPlanException listing every problem, unknown fields included
     * @throws java.io.UncheckedIOException when the file cannot be read or is no JSON
     */
    public static JobPlan read(Path planFile) {
        Objects.requireNonNull(planFile, "planFile");
        com.fasterxml.jackson.databind.JsonNode n;
        try {
            n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(planFile.toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not read the job plan " + planFile + ": " + e.getMessage(), e);
        }
        Path dir = planFile.toAbsolutePath().normalize().getParent();
        return PlanJson.read(n, dir);
    }

    /** A copy with another id. */
    public JobPlan withId(String value) {
        return new JobPlan(value, baseline, ref, harness, provider, model, phases, maxQuotaWait, push, task, healthCheckTimeout);
    }

    /** The phases in the order they run. */
    public List<PhaseSpec> runOrder() {
        return PlanCheck.order(phases);
    }

    /**
     * The phases a phase waits for: the ones it names in {@code depends_on}, or, when no phase of
     * the plan names any, the phase before it.
     *
     * @param phaseId a phase's id
     * @return their ids; empty for the first phase or an id the plan does not hold
     */
    public List<String> dependenciesOf(String phaseId) {
        return PlanCheck.dependencies(phases).getOrDefault(phaseId, List.of());
    }

    /**
     * The phases a phase waits for, transitively, in run order.
     *
     * @param phaseId a phase's id
     * @return their ids; empty for the first phase or an id the plan does not hold
     */
    public List<String> ancestorsOf(String phaseId) {
        return PlanCheck.ancestors(phases, phaseId);
    }

    /**
     * The plan as a plan file's JSON (the one {@link #read(Path)} and {@link #fromJson} read back),
     * its paths absolute.
     *
     * @return the JSON text
     */
    public String toJson() {
        return PlanJson.write(this).toString();
    }

    /**
     * Reads a plan from a plan file's JSON text.
     *
     * @param json the text
     * @param relativeTo the directory relative paths in it (the baseline, task files) are taken from
     * @return the plan
     * @throws InvalidJobPlanException listing every problem of the plan or its fields
     * @throws java.io.UncheckedIOException when the text is no JSON
     */
    public static JobPlan fromJson(String json, Path relativeTo) {
        Objects.requireNonNull(json, "json");
        com.fasterxml.jackson.databind.JsonNode n;
        try {
            n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("the job plan is no JSON: " + e.getMessage(), e);
        }
        return PlanJson.read(n, relativeTo);
    }

    /** A phase's harness: its own, else the job's. */
    public String harnessOf(PhaseSpec phase) {
        return phase.harness() != null ? phase.harness() : harness;
    }

    /** A phase's provider: its own, else the job's. */
    public String providerOf(PhaseSpec phase) {
        return phase.provider() != null ? phase.provider() : provider;
    }

    /** A phase's model: its own, else the job's (may be {@code null}: the provider's default). */
    public String modelOf(PhaseSpec phase) {
        return phase.model() != null ? phase.model() : model;
    }

    /** The phase with this id. */
    public PhaseSpec phase(String phaseId) {
        return phases.stream().filter(p -> p.id().equals(phaseId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no phase " + phaseId + " in this plan"));
    }

    /** Builds a {@link JobPlan}. */
    public static final class Builder {
        private final Path baseline;
        private String id;
        private String ref;
        private String harness;
        private String provider;
        private String model;
        private final List<PhaseSpec> phases = new ArrayList<>();
        private Duration maxQuotaWait = DEFAULT_MAX_QUOTA_WAIT;
        private boolean push;
        private String task;
        private Duration healthCheckTimeout = DEFAULT_HEALTH_CHECK_TIMEOUT;

        private Builder(Path baseline) {
            this.baseline = Objects.requireNonNull(baseline, "baseline");
        }

        /** The job's id; default one made by the runner. */
        public Builder id(String value) {
            this.id = value;
            return this;
        }

        /** The commit-ish of the baseline to start from; default its current branch. */
        public Builder ref(String value) {
            this.ref = value;
            return this;
        }

        /** The default harness of the phases. */
        public Builder harness(String value) {
            this.harness = value;
            return this;
        }

        /** The default provider of the phases. */
        public Builder provider(String value) {
            this.provider = value;
            return this;
        }

        /** The default model of the phases. */
        public Builder model(String value) {
            this.model = value;
            return this;
        }

        /** Adds a phase. */
        public Builder phase(PhaseSpec value) {
            phases.add(Objects.requireNonNull(value, "phase"));
            return this;
        }

        /** Adds a phase with only an id and a prompt. */
        public Builder phase(String phaseId, String prompt) {
            return phase(PhaseSpec.builder(phaseId, prompt).build());
        }

        /** How long a quota reset may be waited for before a fallback provider is tried; default {@link #DEFAULT_MAX_QUOTA_WAIT}. */
        public Builder maxQuotaWait(Duration value) {
            Objects.requireNonNull(value, "maxQuotaWait");
            if (value.isNegative()) {
                throw new IllegalArgumentException("maxQuotaWait must not be negative, was " + value);
            }
            this.maxQuotaWait = value;
            return this;
        }

        /** Whether the finished job's branch is pushed to the baseline's origin; default false. */
        public Builder push(boolean value) {
            this.push = value;
            return this;
        }

        /** The results' task label; default {@code job-<id>}. */
        public Builder task(String value) {
            this.task = value;
            return this;
        }

        /**
         * Whether each phase's provider has its health checked before the phase starts (an
         * unhealthy one is replaced by the phase's next healthy fallback); default true. Switch it
         * off for endpoints with no health route.
         */
        public Builder healthCheck(boolean value) {
            this.healthCheckTimeout = value ? (healthCheckTimeout != null ? healthCheckTimeout
                    : DEFAULT_HEALTH_CHECK_TIMEOUT) : null;
            return this;
        }

        /** How long one health-check request may take; default {@link #DEFAULT_HEALTH_CHECK_TIMEOUT}. Switches checks on. */
        public Builder healthCheckTimeout(Duration value) {
            Objects.requireNonNull(value, "healthCheckTimeout");
            if (value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException("healthCheckTimeout must be positive, was " + value);
            }
            this.healthCheckTimeout = value;
            return this;
        }

        /**
         * Builds the plan.
         *
         * @throws InvalidJobPlanException listing every problem: no phases, a bad or duplicate
         *     id, an unknown dependency, a cycle, a phase with no harness or provider
         */
        public JobPlan build() {
            JobPlan plan = new JobPlan(id, baseline, ref, harness, provider, model, phases, maxQuotaWait, push, task, healthCheckTimeout);
            List<String> problems = PlanCheck.problems(plan);
            if (!problems.isEmpty()) {
                throw new InvalidJobPlanException(problems);
            }
            return plan;
        }
    }
}
