package dev.harness4j.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an adapter needs to translate one run into an {@link Invocation}. Built by
 * harness-core; adapter tests build it with {@link #builder()}.
 *
 * <p>What the runner adds to the caller's task, in {@link #prompt()} (the {@link #task()} is
 * always the caller's text as written):
 * <ul>
 *   <li>the autonomy preamble before it (harness-core's {@code AutonomyPreamble}: a headless run
 *       has no one to answer questions) — off with {@code HarnessRunner.builder().autonomyPreamble(false)};
 *   <li>the phase-report contract after it (harness-core's {@code PhaseReports.CONTRACT}: the
 *       agent is asked to write {@code .harness4j/report.json}) — off with {@code
 *       phaseReports(PhaseReports.GIT_ONLY)}; a runner built with {@code autonomyPreamble(false)}
 *       adds it only when {@code phaseReports(..)} asks for self-reports explicitly.
 * </ul>
 * So with {@code autonomyPreamble(false)} and no explicit phase reports, {@code prompt()} equals
 * {@code task()}: the prompt arrives as the caller wrote it.
 *
 * <p>The {@link #provider()} is the provider as the agent must reach it: when the runner meters
 * the run (its default), its base URL points at the runner's metering proxy on loopback (a
 * per-run path), not at the provider's own endpoint; pass it to the CLI as it is. When the
 * runner confines the run, the process sees a substitute HOME (in the scratch dir), a private
 * {@code /tmp}, a read-only system, and no network but that proxy (harness-core's
 * {@code HarnessRunner.Builder#sandbox}).
 *
 * @param runId the run's unique id
 * @param prompt the full prompt, as the CLI should get it: the {@link #task()} with what the
 *     runner adds (see above)
 * @param provider the resolved provider, carrying the resolved model; its URL is the meter's when
 *     the run is metered
 * @param workspace the isolated checkout the harness works in (absolute)
 * @param scratchDir a per-run directory outside the workspace for config, state and prompt
 *     files; files the invocation declares are written here
 * @param executable the CLI's resolved executable (absolute path or a bare name on {@code PATH})
 * @param limits the run's limits (for CLIs that take e.g. a max-turns flag)
 * @param systemPrompt text to append to the system prompt, or {@code null}
 * @param options harness-specific options from the run spec
 * @param environment the runner's environment (with the caller's explicit variables over it), so
 *     an adapter can find HOME or a key and decide what to remove; never written anywhere by the
 *     library. The process does not inherit it whole: harness-core starts it from a short
 *     allowlist of it ({@code PATH}, {@code HOME}, {@code LANG}, {@code LANGUAGE}, {@code LC_*},
 *     {@code TERM}, {@code TZ}), the names and variables the caller passed explicitly, then the
 *     invocation's variables
 * @param runningAsRoot whether the JVM runs as root (some CLIs refuse flags for root)
 * @param task the caller's task, exactly as given (without what the runner adds)
 * @param resumeSession on a follow-up run ({@code HarnessRunner.followUp}), the agent's own session
 *     to continue — the {@link HarnessResult#sessionId()} of the run it follows, in the same
 *     workspace and scratch dir; {@code null} for a run of its own. Only adapters whose {@link
 *     Harness#supportsFollowUp()} is true get one.
 * @param keepSession whether the runner keeps this run's workspace and scratch dir for a follow-up
 *     ({@code HarnessRunner.Builder.keepWorkspace}): an adapter whose CLI can be told not to save
 *     its session must let it save it then; only adapters whose {@link Harness#supportsFollowUp()}
 *     is true see {@code true}
 * @param mcpServers the MCP servers the run's spec gives the agent ({@link RunSpec#mcpServers()}),
 *     to be written into the CLI's own per-run configuration (in the scratch dir, or its flags);
 *     only adapters whose {@link Harness#supportsMcp()} is true get any
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
        boolean runningAsRoot,
        String task,
        String resumeSession,
        boolean keepSession,
        List<McpServer> mcpServers) {

    /**
     * Checks the required parts and copies the maps.
     *
     * @param runId the run's unique id
     * @param prompt the full prompt
     * @param provider the resolved provider
     * @param workspace the isolated checkout the harness works in
     * @param scratchDir the per-run directory outside the workspace
     * @param executable the CLI's resolved executable
     * @param limits the run's limits
     * @param systemPrompt text to append to the system prompt, or {@code null}
     * @param options harness-specific options from the run spec
     * @param environment the environment the process would inherit
     * @param runningAsRoot whether the JVM runs as root
     * @param task the caller's task as written
     * @param resumeSession the agent's session a follow-up run continues, or {@code null}
     * @param keepSession whether the runner keeps the run's workspace for a follow-up
     * @param mcpServers the MCP servers the agent gets
     */
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
        Objects.requireNonNull(task, "task");
        mcpServers = List.copyOf(Objects.requireNonNull(mcpServers, "mcpServers"));
    }

    /**
     * A context without MCP servers (the constructor before {@link #mcpServers()}).
     *
     * @param runId the run's unique id
     * @param prompt the full prompt
     * @param provider the resolved provider
     * @param workspace the isolated checkout the harness works in
     * @param scratchDir the per-run directory outside the workspace
     * @param executable the CLI's resolved executable
     * @param limits the run's limits
     * @param systemPrompt text to append to the system prompt, or {@code null}
     * @param options harness-specific options from the run spec
     * @param environment the environment the process would inherit
     * @param runningAsRoot whether the JVM runs as root
     * @param task the caller's task as written
     * @param resumeSession the agent's session a follow-up run continues, or {@code null}
     * @param keepSession whether the runner keeps the run's workspace for a follow-up
     */
    public HarnessContext(String runId, String prompt, ResolvedProvider provider, Path workspace, Path scratchDir,
            String executable, Limits limits, String systemPrompt, Map<String, String> options,
            Map<String, String> environment, boolean runningAsRoot, String task, String resumeSession,
            boolean keepSession) {
        this(runId, prompt, provider, workspace, scratchDir, executable, limits, systemPrompt, options, environment,
                runningAsRoot, task, resumeSession, keepSession, List.of());
    }

    /**
     * A context for a run of its own (no session to resume): the constructor before {@link
     * #resumeSession()} existed.
     *
     * @param runId the run's unique id
     * @param prompt the full prompt
     * @param provider the resolved provider
     * @param workspace the isolated checkout the harness works in
     * @param scratchDir the per-run directory outside the workspace
     * @param executable the CLI's resolved executable
     * @param limits the run's limits
     * @param systemPrompt text to append to the system prompt, or {@code null}
     * @param options harness-specific options from the run spec
     * @param environment the environment the process would inherit
     * @param runningAsRoot whether the JVM runs as root
     * @param task the caller's task, exactly as given
     */
    public HarnessContext(String runId, String prompt, ResolvedProvider provider, Path workspace, Path scratchDir,
            String executable, Limits limits, String systemPrompt, Map<String, String> options,
            Map<String, String> environment, boolean runningAsRoot, String task) {
        this(runId, prompt, provider, workspace, scratchDir, executable, limits, systemPrompt, options, environment,
                runningAsRoot, task, null, false);
    }

    /**
     * The session a follow-up run continues, if this is one.
     *
     * @return {@link #resumeSession()}, or empty for a run of its own
     */
    public Optional<String> followUpSession() {
        return Optional.ofNullable(resumeSession);
    }

    /**
     * A context whose task is its whole prompt (nothing added by a runner).
     *
     * @param runId the run's unique id
     * @param prompt the full prompt, also taken as the task
     * @param provider the resolved provider
     * @param workspace the isolated checkout the harness works in
     * @param scratchDir the per-run directory outside the workspace
     * @param executable the CLI's resolved executable
     * @param limits the run's limits
     * @param systemPrompt text to append to the system prompt, or {@code null}
     * @param options harness-specific options from the run spec
     * @param environment the environment the process would inherit
     * @param runningAsRoot whether the JVM runs as root
     */
    public HarnessContext(String runId, String prompt, ResolvedProvider provider, Path workspace, Path scratchDir,
            String executable, Limits limits, String systemPrompt, Map<String, String> options,
            Map<String, String> environment, boolean runningAsRoot) {
        this(runId, prompt, provider, workspace, scratchDir, executable, limits, systemPrompt, options, environment,
                runningAsRoot, prompt);
    }

    /**
     * The model to ask the CLI for: the provider's resolved model.
     *
     * @return the resolved model id
     */
    public String model() {
        return provider.model();
    }

    /**
     * A harness-specific option, if the run spec set it.
     *
     * @param key the option's name
     * @return its value, or empty when the run spec did not set it
     */
    public Optional<String> option(String key) {
        return Optional.ofNullable(options.get(key));
    }

    /**
     * A builder with run id {@code run-test}, {@link Limits#NONE} and no options.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link HarnessContext}; mostly for adapter tests. */
    public static final class Builder {
        private String runId = "run-test";
        private String prompt;
        private String task;
        private ResolvedProvider provider;
        private Path workspace;
        private Path scratchDir;
        private String executable;
        private Limits limits = Limits.NONE;
        private String systemPrompt;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private boolean runningAsRoot;
        private String resumeSession;
        private boolean keepSession;
        private final List<McpServer> mcpServers = new ArrayList<>();

        private Builder() {}

        /**
         * Sets {@link HarnessContext#runId()}.
         *
         * @param v the run id
         * @return this builder
         */
        public Builder runId(String v) { this.runId = v; return this; }
        /**
         * Sets {@link HarnessContext#prompt()}.
         *
         * @param v the prompt
         * @return this builder
         */
        public Builder prompt(String v) { this.prompt = v; return this; }
        /**
         * Sets {@link HarnessContext#task()}; default the prompt.
         *
         * @param v the caller's task as written
         * @return this builder
         */
        public Builder task(String v) { this.task = v; return this; }
        /**
         * Sets {@link HarnessContext#provider()}.
         *
         * @param v the resolved provider
         * @return this builder
         */
        public Builder provider(ResolvedProvider v) { this.provider = v; return this; }
        /**
         * Sets {@link HarnessContext#workspace()}.
         *
         * @param v the workspace
         * @return this builder
         */
        public Builder workspace(Path v) { this.workspace = v; return this; }
        /**
         * Sets {@link HarnessContext#scratchDir()}.
         *
         * @param v the scratch dir
         * @return this builder
         */
        public Builder scratchDir(Path v) { this.scratchDir = v; return this; }
        /**
         * Sets {@link HarnessContext#executable()}.
         *
         * @param v the executable
         * @return this builder
         */
        public Builder executable(String v) { this.executable = v; return this; }
        /**
         * Sets {@link HarnessContext#limits()}.
         *
         * @param v the limits
         * @return this builder
         */
        public Builder limits(Limits v) { this.limits = v; return this; }
        /**
         * Sets {@link HarnessContext#systemPrompt()}.
         *
         * @param v the system prompt addition, or {@code null}
         * @return this builder
         */
        public Builder systemPrompt(String v) { this.systemPrompt = v; return this; }
        /**
         * Adds harness-specific options.
         *
         * @param v the options to add
         * @return this builder
         */
        public Builder options(Map<String, String> v) { options.putAll(v); return this; }
        /**
         * Adds one harness-specific option.
         *
         * @param k the option's name
         * @param v its value
         * @return this builder
         */
        public Builder option(String k, String v) { options.put(k, v); return this; }
        /**
         * Adds variables to the inherited environment.
         *
         * @param v the variables to add
         * @return this builder
         */
        public Builder environment(Map<String, String> v) { environment.putAll(v); return this; }
        /**
         * Sets {@link HarnessContext#runningAsRoot()}.
         *
         * @param v whether the JVM runs as root
         * @return this builder
         */
        public Builder runningAsRoot(boolean v) { this.runningAsRoot = v; return this; }

        /**
         * Sets {@link HarnessContext#resumeSession()}: the agent's session a follow-up run continues.
         *
         * @param v the session id, or {@code null} for a run of its own
         * @return this builder
         */
        public Builder resumeSession(String v) { this.resumeSession = v; return this; }

        /**
         * Sets {@link HarnessContext#keepSession()}: the runner keeps the run's workspace for a follow-up.
         *
         * @param v whether the CLI should save its session
         * @return this builder
         */
        public Builder keepSession(boolean v) { this.keepSession = v; return this; }

        /**
         * Adds MCP servers ({@link HarnessContext#mcpServers()}).
         *
         * @param v the servers to add
         * @return this builder
         */
        public Builder mcpServers(List<McpServer> v) { mcpServers.addAll(v); return this; }

        /**
         * Builds the context.
         *
         * @return the context
         * @throws NullPointerException when prompt, provider, workspace, scratch dir or executable
         *     was not set
         */
        public HarnessContext build() {
            return new HarnessContext(runId, prompt, provider, workspace, scratchDir, executable,
                    limits, systemPrompt, options, environment, runningAsRoot, task != null ? task : prompt, resumeSession,
                    keepSession, mcpServers);
        }
    }
}
