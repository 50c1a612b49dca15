package dev.harness4j.core.stages;

import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Login;
import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.api.Termination;
import dev.harness4j.core.Requirement;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.run.HarnessProcessStage;
import dev.harness4j.core.internal.run.RunnerServices;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the CLI whether it is logged in before its run starts, with the adapter's login probe
 * (when it has one), confined like the run, within a timeout; the answer goes to {@code
 * meta.json}'s {@code login} and is reused for a while by later runs with the same configuration.
 * A failed or timed-out probe is {@link Login#unknown()} and never fails a run, unless the
 * stage {@linkplain Builder#require requires} a login: then a CLI that says it is logged out (or,
 * strictly, cannot tell) is refused with a {@link NotLoggedInException} naming its login command,
 * before the harness starts and with no result written.
 *
 * <p>The probe sees the provider as configured (its real endpoint) but never its key: it makes no
 * model call, so the CLI gets {@link #PROBE_KEY_PLACEHOLDER} in the key's place.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(LoginProbeStage.builder().require(Requirement.REQUIRED).build())
 * }</pre>
 */
public final class LoginProbeStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(LoginProbeStage.class);

    /** The key a login probe gets in place of the provider's (which it never holds). */
    public static final String PROBE_KEY_PLACEHOLDER = "harness4j-login-probe-no-key";

    /** How long a probe may run before the login is recorded as unknown: 20 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);
    /** How long a clear answer is reused by later runs with the same configuration: 5 minutes. */
    public static final Duration DEFAULT_CACHE_TTL = Duration.ofMinutes(5);

    private final Duration timeout;
    private final Duration cacheTtl;
    private final Requirement requirement;
    private final ConcurrentMap<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(Login login, long expiresNanos) {}

    private LoginProbeStage(Builder b) {
        this.timeout = b.timeout;
        this.cacheTtl = b.cacheTtl;
        this.requirement = b.requirement;
    }

    /** Returns a builder: default timeout and cache, no login required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns how firmly a login is required. */
    public Requirement requirement() {
        return requirement;
    }

    @Override
    public Slot slot() {
        return Slot.LOGIN_PROBE;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        Harness harness = run.harness();
        HarnessContext ctx = HarnessProcessStage.context(chain, withoutKey(run.provider().withModel(run.model())));
        java.util.Optional<Invocation> probe;
        try {
            probe = harness.loginProbe(ctx);
        } catch (RuntimeException e) {
            log.info("run {}: {} could not make its login probe ({}); login unknown", run.runId(), harness.id(),
                    Redactor.of(chain.store().require(RunKeys.SECRETS).values()).redact(String.valueOf(e.getMessage())));
            probe = java.util.Optional.empty();
        }
        if (probe.isPresent()) {
            Login login = probe(chain, ctx, probe.get());
            chain.outcome().login(login);
            requireLogin(harness, login, requirement);
        }
        return chain.proceed();
    }

    /**
     * The provider as the probe sees it: its key, if it has one, replaced by {@link
     * #PROBE_KEY_PLACEHOLDER}. A probe makes no model call, so it needs no key; that way the CLI
     * never holds the real one (and a metered run's agent only ever gets its per-run token).
     */
    static dev.harness4j.api.ResolvedProvider withoutKey(dev.harness4j.api.ResolvedProvider p) {
        if (p.secret() == null) {
            return p;
        }
        return new dev.harness4j.api.ResolvedProvider(p.name(), p.apiStyles(), p.baseUrl(),
                dev.harness4j.api.Secret.of(PROBE_KEY_PLACEHOLDER), p.auth(), p.model());
    }

    /** Runs the probe, or answers from the cache; any failure or timeout is {@link Login#unknown()}. */
    private Login probe(RunChain chain, HarnessContext ctx, Invocation inv) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunSecrets secrets = store.require(RunKeys.SECRETS);
        try {
            secrets.addAll(inv.secretValues());
            String key = cacheKey(run, inv, ctx, store.get(CoreKeys.CONFINEMENT).isPresent());
            Login cached = cached(key);
            if (cached == null) {
                cached = LoginCacheFile.read(cacheDir(run), key, cacheTtl);
                if (cached != null) {
                    remember(key, cached); // a clear answer another runner on this machine got within the TTL
                }
            }
            if (cached != null) {
                return cached;
            }
            RunnerServices services = store.require(CoreKeys.SERVICES);
            Path io = store.require(RunKeys.IO_DIR);
            ProcessOutcome o = services.supervisor().run(ProcessRequest.builder(run.runId(), inv, ctx.scratchDir())
                    .confinement(store.get(CoreKeys.CONFINEMENT).orElse(null))
                    .baseEnvironment(services.processEnvironment())
                    .scope(services.workspaces().markerScope())
                .scope(services.workspaces().markerScope())
                    .stdoutFile(io.resolve("login-stdout.log"))
                    .stderrFile(io.resolve("login-stderr.log"))
                    .transcriptFile(io.resolve("login-transcript.log"))
                    .limits(new Limits(null, timeout, null))
                    .secrets(secrets.values())
                    .build());
            if (o.termination().kind() == Termination.Kind.BAILED) {
                store.require(CoreKeys.BAILED).set(true); // a bail that stopped the probe stops the run
            }
            if (o.termination().kind() != Termination.Kind.EXITED) {
                log.info("run {}: login probe of {} ended {}; login unknown", run.runId(), run.harness().id(),
                        o.termination());
                return Login.unknown();
            }
            Login l = run.harness().interpretLogin(new Execution(ctx, inv, o.exitCode(), o.termination(),
                    io.resolve("login-stdout.log"), io.resolve("login-stderr.log"),
                    GitChanges.none(run.baseline().commit()), o.duration(), o.startedAt(), o.finishedAt()));
            if (l == null) {
                return Login.unknown();
            }
            remember(key, l);
            if (!cacheTtl.isZero() && l.status() == Login.Status.LOGGED_IN) {
                // only a login on disk: a user who logs in after a refusal must not wait out the TTL in other processes
                LoginCacheFile.write(cacheDir(run), key, l, cacheTtl);
            }
            return l;
        } catch (InterruptedException e) {
            throw e;
        } catch (RuntimeException e) {
            log.info("run {}: login probe of {} failed ({}); login unknown", run.runId(), run.harness().id(),
                    Redactor.of(secrets.values()).redact(String.valueOf(e.getMessage())));
            return Login.unknown();
        }
    }

    /** Where answers are kept for other runners of this state dir (and later processes): {@code cache/logins}. */
    private static Path cacheDir(RunContext run) {
        return run.stateDir().resolve("cache").resolve("logins");
    }

    /** A cached clear answer for this configuration, or null. */
    private Login cached(String key) {
        Cached c = cache.get(key);
        if (c == null) {
            return null;
        }
        if (System.nanoTime() - c.expiresNanos() >= 0) {
            cache.remove(key, c);
            return null;
        }
        return c.login();
    }

    /** Keeps a clear answer for the cache's lifetime; an unknown one is never kept. */
    private void remember(String key, Login login) {
        if (!cacheTtl.isZero() && login.status() != Login.Status.UNKNOWN) {
            cache.put(key, new Cached(login, System.nanoTime() + cacheTtl.toNanos()));
        }
    }

    /**
     * What makes a probe's answer: whether it is confined (it sees another HOME), the harness, the CLI's binary (its real path, size and time), the
     * provider, the probe's command, environment and files with this run's own paths and id taken
     * out; hashed (SHA-256) so that no key sits in the cache.
     */
    private static String cacheKey(RunContext run, Invocation inv, HarnessContext ctx, boolean confined) {
        StringBuilder sb = new StringBuilder(confined ? "confined" : "unconfined").append('\0').append(run.harness().id()).append('\0').append(LoginCacheFile.identity(run.executable()))
                .append('\0').append(run.provider().name()).append('\0')
                .append(run.provider().baseUrl()).append('\0').append(String.join("\0", inv.command()));
        new TreeMap<>(inv.environment()).forEach((k, v) -> sb.append('\0').append(k).append('=').append(v));
        inv.removeEnvironment().stream().sorted().forEach(k -> sb.append("\0-").append(k));
        new TreeMap<>(inv.files()).forEach((k, v) -> sb.append('\0').append(k).append(':').append(v));
        sb.append('\0').append(inv.workingDir()).append('\0').append(inv.stdin());
        String text = sb.toString().replace(ctx.scratchDir().toString(), "<scratch>")
                .replace(ctx.workspace().toString(), "<ws>").replace(run.runId(), "<run>");
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Refuses a run whose CLI is not logged in: {@code NOT_LOGGED_IN} under {@link
     * Requirement#REQUIRED}, also {@code UNKNOWN} under {@link Requirement#STRICT}.
     */
    static void requireLogin(Harness harness, Login login, Requirement requirement) {
        if (requirement == Requirement.OFF || login.status() == Login.Status.LOGGED_IN) {
            return;
        }
        if (login.status() == Login.Status.UNKNOWN && requirement != Requirement.STRICT) {
            return;
        }
        String said = login.status() == Login.Status.NOT_LOGGED_IN ? "says it is not logged in"
                : "could not tell whether it is logged in (the probe failed, timed out or said nothing clear; strict "
                        + "mode refuses that too)";
        String fix = harness.loginCommand().map(c -> "log it in with: " + c)
                .orElse("give the provider a key, or log the CLI in");
        throw new NotLoggedInException(harness.id(), login.status(), "refused to run " + harness.id() + ": its CLI "
                + said + ", and this runner requires a login (requireLogin " + requirement.name().toLowerCase(Locale.ROOT)
                + "); " + fix + ". Nothing was started.");
    }

    /** Builds a {@link LoginProbeStage}. */
    public static final class Builder {
        private Duration timeout = DEFAULT_TIMEOUT;
        private Duration cacheTtl = DEFAULT_CACHE_TTL;
        private Requirement requirement = Requirement.OFF;

        private Builder() {}

        /**
         * The probe's max runtime; default {@link #DEFAULT_TIMEOUT}.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder timeout(Duration value) {
            this.timeout = Checks.positive(value, "loginTimeout");
            return this;
        }

        /**
         * How long a clear answer is reused; {@link Duration#ZERO} probes every run; default
         * {@link #DEFAULT_CACHE_TTL}. An unknown answer is never reused.
         *
         * @param value zero or more
         * @return this builder
         */
        public Builder cacheTtl(Duration value) {
            Objects.requireNonNull(value, "loginCacheTtl");
            if (value.isNegative()) {
                throw new IllegalArgumentException("loginCacheTtl must not be negative, was " + value);
            }
            this.cacheTtl = value;
            return this;
        }

        /**
         * Whether the CLI must be logged in (see the class javadoc); default {@link Requirement#OFF}.
         *
         * @param value the requirement
         * @return this builder
         */
        public Builder require(Requirement value) {
            this.requirement = Objects.requireNonNull(value, "requireLogin");
            return this;
        }

        /** Returns the stage. */
        public LoginProbeStage build() {
            return new LoginProbeStage(this);
        }
    }
}
