package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.AutonomyPreamble;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.Checks;
import dev.harness4j.core.internal.gateway.GatewayAccounting;
import dev.harness4j.core.internal.meter.Meter;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.ModelPrice;
import dev.harness4j.core.provider.PriceList;
import dev.harness4j.core.process.Bubblewrap;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.internal.workspace.BranchPusher;
import dev.harness4j.core.internal.workspace.ChangeCollector;
import dev.harness4j.core.internal.workspace.Workspaces;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one harness on one task in an isolated checkout, guarded, and captures the result:
 * registry → installation → provider → workspace → prepare → supervise → git changes →
 * interpret → phase report ({@link PhaseReports}) → result store. Thread-safe: concurrent {@link #run}
 * calls are independent.
 *
 * <pre>{@code
 * try (HarnessRunner runner = HarnessRunner.builder()
 *         .stateDir(Path.of("/var/h4j"))
 *         .providers(myResolver)
 *         .listener(event -> System.out.println(event))
 *         .build()) {
 *     RunRecord record = runner.run(RunSpec.builder("opencode", "local")
 *             .model("gemma4:31b").prompt("Add a README").baseline(Path.of("/src/repo")).build());
 *     System.out.println(record.result().outcome() + " -> " + record.resultDir());
 * }
 * }</pre>
 *
 * <p>Bad input detectable before anything starts (unknown harness, CLI not installed, provider
 * not resolvable, baseline not a repository, unknown ref, state dir not writable) throws the
 * matching {@link dev.harness4j.api.HarnessException} and writes nothing. Once the run has
 * started, every failure (workspace, prepare, process start, capture) ends with a result on disk
 * whose {@code outcome} is {@code error} and whose {@code stage} and {@code reason} say where
 * and why. The run's directory under {@code <stateDir>/runs/<runId>} is removed after capture.
 * A dirty baseline is isolated from its committed state, noted in {@code meta.json}.
 *
 * <p>Each run's model traffic goes through the runner's metering proxy (a loopback server started
 * with the first run and closed with the runner; {@link Builder#metering(boolean)}), so that
 * tokens, cost ({@link Builder#prices}), the served model and the error class come from the wire
 * the same way for every harness, and {@code Limits} budgets can stop a run.
 */
public final class HarnessRunner implements AutoCloseable {
    /** How long pushing a result branch may take: 2 minutes. */
    public static final Duration DEFAULT_PUSH_TIMEOUT = BranchPusher.DEFAULT_PUSH_TIMEOUT;

    /**
     * How long a login probe's clear answer (logged in or not) is reused by later runs of this
     * runner with the same harness and configuration: 5 minutes.
     */
    public static final Duration DEFAULT_LOGIN_CACHE_TTL = Duration.ofMinutes(5);

    /** How long an adapter's login probe may run before the login is recorded as unknown: 20 s. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(20);

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    final HarnessRegistry registry;
    final Installations installations;
    final List<ProviderResolver> providers;
    final HarnessListener listener;
    final Map<String, String> environment;
    final boolean pushBranches;
    final boolean autonomyPreamble;
    final dev.harness4j.core.internal.phase.PhaseReporter phaseReporter;
    final boolean loginProbe;
    final Duration loginTimeout;
    final Duration loginCacheTtl;
    private final ConcurrentMap<String, CachedLogin> logins = new ConcurrentHashMap<>();
    final Workspaces workspaces;
    final ChangeCollector changes;
    final BranchPusher pusher;
    final ResultStore store;
    private final ResultIndex results;
    final ProcessSupervisor supervisor;
    final boolean runningAsRoot;
    final boolean metering;
    final Requirement requireServedModel;
    final Requirement requireLogin;
    /** Whether metered runs keep their model calls' bodies ({@link Builder#recordBodies}). */
    final boolean recordBodies;
    /** How many 429s in a row stop a metered run ({@link Builder#stopAfterRateLimits}); null: the adapter's. */
    final Integer stopAfterRateLimits;
    /** Told about every finished run, in order ({@link Builder#observer}). */
    final List<RunObserver> observers;
    final RunnerSandbox sandbox;
    private final PriceList prices;
    /** Per-run gateway keys and spend, for providers with a gateway. */
    final GatewayAccounting gateways;
    private Meter meter; // started by the first metered run; guarded by this
    /** Deletes a finished run's checkout while its results are written; daemon threads, idle ones end. */
    final ExecutorService housekeeping = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "harness4j-cleanup");
        t.setDaemon(true);
        return t;
    });
    private final SecureRandom random = new SecureRandom();
    private final ConcurrentMap<String, AtomicBoolean> preparing = new ConcurrentHashMap<>();
    /** Runs whose harness process has ended: a bail can no longer change their outcome. */
    private final Set<String> processEnded = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private HarnessRunner(Builder b) {
        this.registry = b.registry != null ? b.registry : HarnessRegistry.fromServices();
        this.installations = b.installations != null ? b.installations : Installations.defaults();
        this.providers = List.copyOf(b.providers);
        this.listener = b.listener;
        this.environment = Map.copyOf(b.environment != null ? b.environment : System.getenv());
        this.pushBranches = b.pushBranches;
        this.autonomyPreamble = b.autonomyPreamble;
        this.loginProbe = b.loginProbe;
        this.loginTimeout = b.loginTimeout;
        this.loginCacheTtl = b.loginCacheTtl;
        this.workspaces = Workspaces.builder().stateDir(b.stateDir).gitExecutable(b.gitExecutable).build();
        this.changes = new ChangeCollector(workspaces);
        this.pusher = new BranchPusher(workspaces, b.pushTimeout);
        this.store = new ResultStore(workspaces.stateDir());
        this.results = ResultIndex.of(workspaces.stateDir());
        this.supervisor = ProcessSupervisor.builder().termGrace(b.termGrace).build();
        this.runningAsRoot = detectRoot();
        this.metering = b.metering;
        this.requireServedModel = b.requireServedModel;
        this.requireLogin = b.requireLogin;
        this.recordBodies = b.recordBodies;
        this.stopAfterRateLimits = b.stopAfterRateLimits;
        this.observers = List.copyOf(b.observers);
        this.sandbox = new RunnerSandbox(b.sandbox, b.sandboxNetwork, b.bwrap, b.sandboxReadOnly, environment);
        this.prices = b.prices;
        this.phaseReporter = new dev.harness4j.core.internal.phase.PhaseReporter(b.phaseReports, this::resolve);
        this.gateways = new GatewayAccounting(providers, b.gateway);
    }

    private record CachedLogin(dev.harness4j.api.Login login, long expiresNanos) {}

    /** A cached clear login answer for this configuration key, or null. */
    dev.harness4j.api.Login cachedLogin(String key) {
        CachedLogin c = logins.get(key);
        if (c == null) {
            return null;
        }
        if (System.nanoTime() - c.expiresNanos() >= 0) {
            logins.remove(key, c);
            return null;
        }
        return c.login();
    }

    /** Keeps a clear login answer for {@link #loginCacheTtl}; an unknown one is never kept. */
    void cacheLogin(String key, dev.harness4j.api.Login login) {
        if (!loginCacheTtl.isZero() && login.status() != dev.harness4j.api.Login.Status.UNKNOWN) {
            logins.put(key, new CachedLogin(login, System.nanoTime() + loginCacheTtl.toNanos()));
        }
    }

    /** The meter, started on first use; null once this runner is closed. */
    synchronized Meter meter() {
        if (closed.get()) {
            throw new IllegalStateException("this HarnessRunner is closed");
        }
        if (meter == null) {
            meter = Meter.start();
        }
        return meter;
    }

    /**
     * The price of a model: the table given to {@link Builder#prices}, else the first resolver
     * that is also a {@link PriceList} and knows it; empty when none does.
     */
    Optional<ModelPrice> price(String provider, String model) {
        Optional<ModelPrice> p = prices.price(provider, model);
        for (ProviderResolver r : providers) {
            if (p.isPresent()) {
                break;
            }
            if (r instanceof PriceList list) {
                p = list.price(provider, model);
            }
        }
        return p;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The state dir: {@code runs/} and {@code results/} live below it. */
    public Path stateDir() {
        return workspaces.stateDir();
    }

    /**
     * The results in this runner's state dir, one directory per run ({@code
     * results/<task>/<harness>__<provider>__<model>/<runId>/}), found by task, harness, provider
     * and model.
     */
    public ResultIndex results() {
        return results;
    }

    /** How firmly this runner requires the served model to be the requested one ({@link Builder#requireServedModel}). */
    public Requirement servedModelRequirement() {
        return requireServedModel;
    }

    /** The adapters this runner knows. */
    public HarnessRegistry registry() {
        return registry;
    }

    /** Where this runner finds the CLIs. */
    public Installations installations() {
        return installations;
    }

    /**
     * Resolves a provider and model the way a run does: the resolvers in order, the first
     * non-empty answer wins.
     *
     * @param model the requested model, or {@code null} for the provider's default
     * @throws ProviderNotResolvableException when no resolver knows the provider, or it cannot
     *     be resolved (no model, say); the message lists the known providers
     */
    public ResolvedProvider resolveProvider(String provider, String model) {
        Objects.requireNonNull(provider, "provider");
        return resolve(provider, model);
    }

    /** Runs a spec under a fresh run id; see {@link #run(RunSpec, String)}. */
    public RunRecord run(RunSpec spec) {
        return run(spec, newRunId());
    }

    /** Runs a spec under the given run id; see {@link #run(RunSpec, String, HarnessListener)}. */
    public RunRecord run(RunSpec spec, String runId) {
        return run(spec, runId, HarnessListener.NONE);
    }

    /**
     * Runs a spec under the given run id and blocks until its result is on disk.
     *
     * @param runId a unique id ({@code [A-Za-z0-9][A-Za-z0-9._-]*}), so that {@link #bail} can
     *     be called before this returns
     * @throws dev.harness4j.api.UnknownHarnessException when no adapter has the spec's harness id
     * @throws dev.harness4j.api.HarnessNotInstalledException when the harness's CLI is missing
     * @throws ProviderNotResolvableException when no resolver knows the provider, or it cannot
     *     be resolved
     * @throws dev.harness4j.core.workspace.NotAGitRepositoryException for a baseline that is no
     *     repository
     * @throws dev.harness4j.core.workspace.UnknownRefException for a ref that names no commit
     * @throws dev.harness4j.core.workspace.StateDirNotWritableException when the state dir
     *     cannot be written
     * @throws IllegalArgumentException when the run id does not match the pattern (e.g.
     *     {@code ../x}), before any file is created
     * @param listener receives this run's events, after the runner's own listener
     * @throws IllegalStateException when this runner is closed
     */
    public RunRecord run(RunSpec spec, String runId, HarnessListener listener) {
        return run(spec, runId, listener, AfterHarness.NONE);
    }

    /**
     * Runs a spec as {@link #run(RunSpec, String, HarnessListener)} does, with a step that runs
     * after the harness process has ended, in the workspace with the agent's changes in place,
     * before the workspace is deleted and the result written (a bench's verifier, say).
     *
     * @param spec what to run
     * @param runId a unique id, as for {@link #run(RunSpec, String, HarnessListener)}
     * @param listener receives this run's events, after the runner's own listener
     * @param afterHarness the step; {@link AfterHarness#NONE} for none
     * @return the run's record, with the step's {@link RunRecord#sections()}
     */
    public RunRecord run(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness) {
        Objects.requireNonNull(afterHarness, "afterHarness");
        Workspaces.requireValidRunId(runId); // first: the id becomes a path, nothing may be created before
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(listener, "listener");
        if (closed.get()) {
            throw new IllegalStateException("this HarnessRunner is closed; build a new one to run " + spec.harness());
        }
        AtomicBoolean bailed = new AtomicBoolean();
        if (preparing.putIfAbsent(runId, bailed) != null) {
            throw new IllegalArgumentException("run " + runId + " is already running; run ids must be unique");
        }
        try {
            Harness harness = registry.require(spec.harness());
            Path executable = installations.require(harness);
            sandbox.requireIfRequired(metering, spec.sandboxNetwork()); // REQUIRED and bubblewrap cannot run here: nothing starts
            ResolvedProvider provider = resolve(spec.provider(), spec.model());
            var baseline = workspaces.inspect(spec.baseline(), spec.ref()); // reads only: bad input writes nothing
            workspaces.ensureWritableDir(workspaces.stateDir().resolve("runs"));
            workspaces.ensureWritableDir(store.resultsDir());
            RunSpec framed = autonomyPreamble ? spec.withPrompt(AutonomyPreamble.frame(spec.prompt())) : spec;
            framed = framed.withPrompt(phaseReporter.prompt(framed.prompt())); // the self-report contract, when on
            HarnessListener both = listener == HarnessListener.NONE ? this.listener : both(this.listener, listener);
            return new RunExecution(this, runId, framed, harness, executable, provider, baseline, bailed, both)
                    .afterHarness(afterHarness).execute();
        } finally {
            preparing.remove(runId, bailed);
            processEnded.remove(runId);
        }
    }

    /**
     * Bails a run from any thread: a running process is stopped (outcome {@code bailed}); a run
     * still preparing ends as {@code bailed} before its process starts.
     *
     * @return true when the run will end as {@code bailed}; false when no run with this id is
     *     going on, its harness process has already ended (its result is being captured), or
     *     another stop was decided first
     */
    public boolean bail(String runId) {
        Objects.requireNonNull(runId, "runId");
        if (supervisor.bail(runId)) {
            return true;
        }
        AtomicBoolean flag = preparing.get(runId);
        if (flag == null || processEnded.contains(runId)) {
            return false;
        }
        flag.set(true);
        supervisor.bail(runId); // the process may have started in between
        return true;
    }

    /** Stops every running run (they end as {@code bailed} with their results written); idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            preparing.values().forEach(f -> f.set(true));
            supervisor.close();
            synchronized (this) {
                if (meter != null) {
                    meter.close();
                }
                sandbox.close();
            }
            housekeeping.shutdown(); // runs still ending delete their checkouts themselves
        }
    }

    /** Called by a run once its harness process has ended: later bails are refused. */
    void processEnded(String runId) {
        processEnded.add(runId);
    }

    private static HarnessListener both(HarnessListener first, HarnessListener second) {
        return event -> {
            try {
                first.onEvent(event);
            } finally {
                second.onEvent(event);
            }
        };
    }

    private ResolvedProvider resolve(String provider, String model) {
        Set<String> known = new TreeSet<>();
        for (ProviderResolver r : providers) {
            Optional<ResolvedProvider> p = r.resolve(provider, model);
            if (p.isPresent()) {
                return p.get();
            }
            known.addAll(r.providerNames());
        }
        throw new ProviderNotResolvableException(provider, "unknown provider '" + provider + "'; known providers: "
                + known + " (configure it, or add a ProviderResolver with HarnessRunner.builder().providers(..))");
    }

    private String newRunId() {
        byte[] b = new byte[4];
        random.nextBytes(b);
        return ZonedDateTime.now(ZoneOffset.UTC).format(ID_TIME) + "-" + HexFormat.of().formatHex(b);
    }

    private static boolean detectRoot() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux: fall back to the user name
        }
        return "root".equals(System.getProperty("user.name"));
    }

    /** Builds a {@link HarnessRunner}. */
    public static final class Builder {
        private Path stateDir = Workspaces.defaultStateDir();
        private HarnessRegistry registry;
        private Installations installations;
        private final List<ProviderResolver> providers = new ArrayList<>();
        private HarnessListener listener = HarnessListener.NONE;
        private Duration termGrace = ProcessSupervisor.DEFAULT_TERM_GRACE;
        private Duration pushTimeout = DEFAULT_PUSH_TIMEOUT;
        private Map<String, String> environment;
        private String gitExecutable = "git";
        private boolean pushBranches;
        private boolean autonomyPreamble = true;
        private PhaseReports phaseReports = PhaseReports.DEFAULT;
        private boolean loginProbe = true;
        private Duration loginTimeout = DEFAULT_LOGIN_TIMEOUT;
        private Duration loginCacheTtl = DEFAULT_LOGIN_CACHE_TTL;
        private boolean metering = true;
        private Requirement requireServedModel = Requirement.OFF;
        private Requirement requireLogin = Requirement.OFF;
        private boolean recordBodies;
        private Integer stopAfterRateLimits;
        private final List<RunObserver> observers = new ArrayList<>();
        private PriceList prices = PriceList.NONE;
        private GatewayOptions gateway = GatewayOptions.defaults();
        private Sandbox sandbox = Sandbox.AUTO;
        private SandboxNetwork sandboxNetwork = SandboxNetwork.METER_ONLY;
        private Path bwrap = Bubblewrap.DEFAULT_BWRAP;
        private final List<Path> sandboxReadOnly = new ArrayList<>();

        private Builder() {}

        /**
         * Whether each harness process is confined in a bubblewrap sandbox: the file system
         * read-only except its workspace and scratch dir, an empty HOME of its own (nothing of the
         * real HOME but the tools dir and {@link #sandboxReadOnly}), a private {@code /tmp}, its
         * own PID namespace and no network but the metering proxy ({@link #sandboxNetwork}).
         * Default {@link Sandbox#AUTO}: confined when bubblewrap works here (probed once per
         * runner), else unconfined with the reason in {@code meta.json}'s {@code sandbox}.
         * {@link Sandbox#REQUIRED} refuses to run, before anything starts, when it cannot.
         */
        public Builder sandbox(Sandbox value) {
            this.sandbox = Objects.requireNonNull(value, "sandbox");
            return this;
        }

        /** What a confined run may reach: default {@link SandboxNetwork#METER_ONLY}; {@code HOST} for package installs. */
        public Builder sandboxNetwork(SandboxNetwork value) {
            this.sandboxNetwork = Objects.requireNonNull(value, "sandboxNetwork");
            return this;
        }

        /** The {@code bwrap} executable; default {@link Bubblewrap#DEFAULT_BWRAP}. */
        public Builder bwrapExecutable(Path value) {
            this.bwrap = Objects.requireNonNull(value, "bwrapExecutable");
            return this;
        }

        /** A directory a confined run may read even when under the real HOME (the tools dir always may). */
        public Builder sandboxReadOnly(Path dir) {
            this.sandboxReadOnly.add(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
            return this;
        }

        /**
         * Whether each run's model traffic goes through the runner's metering proxy (a loopback
         * HTTP server, started with the first run): the adapter is handed the provider with its
         * base URL pointing at the proxy, which forwards byte for byte to the real endpoint and
         * measures tokens, answering models, errors and rate limits on the way ({@code
         * requests.jsonl}); budget limits need it. Default true.
         */
        public Builder metering(boolean value) {
            this.metering = value;
            return this;
        }

        /**
         * Whether a run must be served by the model it asked for. {@link Requirement#REQUIRED}:
         * a run whose served-model verdict is {@code mismatch} or {@code unmeasured} is marked
         * untrusted ({@code meta.json}'s {@code trust}, a note); {@link Requirement#STRICT}: such
         * a run that succeeded ends {@code model-mismatch} instead, which a queue does not retry
         * and a bench counts as failed (and runs again when it resumes). Default {@link
         * Requirement#OFF}. The verdict comes from the meter, else from the adapter.
         */
        public Builder requireServedModel(Requirement value) {
            this.requireServedModel = Objects.requireNonNull(value, "requireServedModel");
            return this;
        }

        /**
         * Whether a metered run keeps its model calls' request and response bodies in its result
         * dir ({@code bodies/<n>.request}, {@code bodies/<n>.response}, {@code bodies/index.jsonl}):
         * copied to disk as they stream through the meter (never changing what is forwarded),
         * each cut at 4 MiB with a marker, secret values replaced by {@code ***}. They give the
         * run's {@code trajectory.json} its messages, tool calls and tool results when the
         * adapter reports none of its own. Default false (bodies hold the code and prompts the
         * agent saw); needs {@link #metering(boolean)} on.
         */
        public Builder recordBodies(boolean value) {
            this.recordBodies = value;
            return this;
        }

        /**
         * How many rate-limited answers in a row (HTTP 429 on model requests, with no successful
         * model answer between) a metered run may take before the runner stops the harness, the
         * way it stops an idle one (the whole process tree), and ends the run {@code
         * rate-limited} with the retry time the endpoint sent ({@code meta.json}'s {@code
         * termination} says who stopped it). For CLIs that keep retrying a rate limit on their
         * own schedule for many minutes, longer than the endpoint's {@code Retry-After} asks. {@code 0} never stops a
         * run. Unset (the default), each adapter's own {@link dev.harness4j.api.Harness#stopAfterRateLimits()}
         * applies (0 for most). A value above 0 needs {@link #metering(boolean)} on: {@link #build()}
         * refuses it with metering off.
         *
         * @param value 0 or more
         * @return this builder
         * @throws IllegalArgumentException when {@code value} is negative
         */
        public Builder stopAfterRateLimits(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("stopAfterRateLimits must be 0 (never stop a run) or more, was "
                        + value);
            }
            this.stopAfterRateLimits = value;
            return this;
        }

        /**
         * Whether the CLI must be logged in before its run starts, by the adapter's login probe
         * (cached, {@link #loginCacheTtl}). {@link Requirement#REQUIRED}: a CLI that says it is
         * logged out is refused with a {@link dev.harness4j.api.NotLoggedInException} naming its
         * login command, before the harness process starts and with no result written; {@link
         * Requirement#STRICT}: an unknown answer is refused too. An adapter without a probe
         * (its CLI has no login of its own) is never refused. Default {@link Requirement#OFF};
         * anything else needs {@link #loginProbe} on.
         */
        public Builder requireLogin(Requirement value) {
            this.requireLogin = Objects.requireNonNull(value, "requireLogin");
            return this;
        }

        /**
         * Adds an observer told about each finished run once its result is written (for
         * exporters: harness-otel's spans, for one); observers are called in the order added.
         */
        public Builder observer(RunObserver value) {
            this.observers.add(Objects.requireNonNull(value, "observer"));
            return this;
        }

        /**
         * Prices of models, for a cost from metered tokens (source {@code metered-price}); asked
         * before any resolver that is itself a {@link PriceList}. Default none: a model without a
         * price has no metered cost, never $0.
         */
        public Builder prices(PriceList value) {
            this.prices = Objects.requireNonNull(value, "prices");
            return this;
        }

        /**
         * How runs on a provider with a gateway ({@code "gateway": {"type": "litellm", ...}}) are
         * accounted: a per-run key minted before the run, its spend logs read after it until two
         * consecutive reads agree (tokens with source {@code gateway}), the key revoked. No
         * gateway failure fails a run. Default {@link GatewayOptions#defaults()}.
         */
        public Builder gateway(GatewayOptions value) {
            this.gateway = Objects.requireNonNull(value, "gateway");
            return this;
        }

        /** Where runs and results go; default {@code ~/.harness4j}. */
        public Builder stateDir(Path value) {
            this.stateDir = Objects.requireNonNull(value, "stateDir");
            return this;
        }

        /** The adapters; default every adapter on the class path ({@link HarnessRegistry#fromServices()}). */
        public Builder registry(HarnessRegistry value) {
            this.registry = Objects.requireNonNull(value, "registry");
            return this;
        }

        /** Where CLIs are found; default {@link Installations#defaults()}. */
        public Builder installations(Installations value) {
            this.installations = Objects.requireNonNull(value, "installations");
            return this;
        }

        /** Provider resolvers, asked in order; the first non-empty answer wins. */
        public Builder providers(ProviderResolver... values) {
            for (ProviderResolver r : values) {
                providers.add(Objects.requireNonNull(r, "provider resolver"));
            }
            return this;
        }

        /** Receives every run's events; default none. */
        public Builder listener(HarnessListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /** Between TERM and KILL when a run is stopped; default {@link ProcessSupervisor#DEFAULT_TERM_GRACE}. */
        public Builder termGrace(Duration value) {
            this.termGrace = Checks.positive(value, "termGrace");
            return this;
        }

        /** How long a result branch push may take; default {@link #DEFAULT_PUSH_TIMEOUT}. */
        public Builder pushTimeout(Duration value) {
            this.pushTimeout = Checks.positive(value, "pushTimeout");
            return this;
        }

        /**
         * Whether each result is pushed to a branch {@code harnesstests/<task>/<harness>__<provider>__<model>/<runId>}
         * of the baseline's remote (when it has one); default false: a library writes to no remote unless asked.
         */
        public Builder pushBranches(boolean value) {
            this.pushBranches = value;
            return this;
        }

        /**
         * Whether every prompt is framed by the {@link AutonomyPreamble} (a headless run has no one
         * to answer questions) before the adapter sees it; idempotent; default true.
         */
        public Builder autonomyPreamble(boolean value) {
            this.autonomyPreamble = value;
            return this;
        }

        /**
         * How each run's phase report is found ({@code meta.json}'s {@code phase_report}): default
         * {@link PhaseReports#DEFAULT} (the self-report contract appended to every prompt, no
         * summarizer); {@link PhaseReports#GIT_ONLY} leaves the prompt as given.
         */
        public Builder phaseReports(PhaseReports value) {
            this.phaseReports = Objects.requireNonNull(value, "phaseReports");
            return this;
        }

        /**
         * Whether the adapter's login probe (when it has one) runs before the main process, its
         * answer going to {@code meta.json}'s {@code login}; a failed probe never fails the run;
         * default true.
         */
        public Builder loginProbe(boolean value) {
            this.loginProbe = value;
            return this;
        }

        /**
         * How long a login probe's clear answer is reused by later runs of this runner with the
         * same harness and configuration (the probe's command and environment, the endpoint and
         * key), instead of probing again (~300 ms a run); {@link Duration#ZERO} probes every run;
         * default {@link #DEFAULT_LOGIN_CACHE_TTL}. An unknown answer is never reused.
         */
        public Builder loginCacheTtl(Duration value) {
            Objects.requireNonNull(value, "loginCacheTtl");
            if (value.isNegative()) {
                throw new IllegalArgumentException("loginCacheTtl must not be negative, was " + value);
            }
            this.loginCacheTtl = value;
            return this;
        }

        /** The login probe's max runtime; default {@link #DEFAULT_LOGIN_TIMEOUT}. */
        public Builder loginTimeout(Duration value) {
            this.loginTimeout = Checks.positive(value, "loginTimeout");
            return this;
        }

        /** The environment harness processes start from; default {@code System.getenv()}. */
        public Builder environment(Map<String, String> value) {
            this.environment = Map.copyOf(Objects.requireNonNull(value, "environment"));
            return this;
        }

        /** The git binary; default {@code git} on {@code PATH}. */
        public Builder gitExecutable(String value) {
            this.gitExecutable = Objects.requireNonNull(value, "gitExecutable");
            return this;
        }

        public HarnessRunner build() {
            if (requireLogin != Requirement.OFF && !loginProbe) {
                throw new IllegalStateException("requireLogin(" + requireLogin + ") needs the login probe; remove "
                        + "loginProbe(false) or set requireLogin(Requirement.OFF)");
            }
            if (stopAfterRateLimits != null && stopAfterRateLimits > 0 && !metering) {
                throw new IllegalStateException("stopAfterRateLimits(" + stopAfterRateLimits + ") needs metering: the "
                        + "stop counts 429s on the wire; remove metering(false) or set stopAfterRateLimits(0)");
            }
            return new HarnessRunner(this);
        }
    }
}
