package dev.harness4j.meter.internal;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.Termination;
import dev.harness4j.core.stages.WireStages;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Stops a metered run whose model endpoint answers with errors no retry of the CLI's will heal,
 * asking once for the stop with a termination whose reason says who stopped it and why:
 * <ul>
 *   <li>the first 401 or 403 on a model request (or Google's 400 {@code API_KEY_INVALID}): the key is refused ({@link Termination.Kind#AUTH_REFUSED},
 *       ends {@code auth}), unless {@link Rules#stopOnAuthFailure()} is off;
 *   <li>{@code rateLimits} model requests in a row ending 429, with no 2xx model answer between
 *       ({@link Termination.Kind#RATE_LIMITED}, with the retry time the last counted 429 carried);
 *   <li>{@code serverErrors} model requests in a row failing with a 5xx or on the way (the endpoint
 *       unreachable, the stream reset, a timeout), with no 2xx model answer between
 *       ({@link Termination.Kind#ENDPOINT_FAILING}, ends {@code transient}).
 * </ul>
 * Only a success (a 2xx that arrived whole) resets a streak; a 429 and a 5xx do not count towards each other's; another
 * 4xx neither counts nor stops; a non-model request, a request the meter itself refused (a
 * budget) and one the CLI hung up on are ignored. A limit of 0 never stops.
 *
 * <p>The meter reports every finished request ({@link MeterRun.Hooks#requestEnded}); a 429's
 * retry time is read from its {@code Retry-After} or reset headers ({@link RequestRecord#retryAt()}).
 * Thread-safe: requests end on their own threads.
 */
public final class WireStop {
    /** The default number of failed model requests in a row that stop a run. */
    public static final int DEFAULT_SERVER_ERRORS = WireStages.DEFAULT_SERVER_ERRORS;

    /**
     * The stop's settings, as the meter stage holds them.
     *
     * @param stopAfterRateLimits the runner's 429 limit, or {@code null} for the adapter's own
     *     ({@link Harness#stopAfterRateLimits()})
     * @param stopOnAuthFailure whether the first 401/403 stops the run
     * @param stopAfterServerErrors the 5xx/connection-failure limit, or {@code null} for {@link #DEFAULT_SERVER_ERRORS}
     */
    public record Rules(Integer stopAfterRateLimits, boolean stopOnAuthFailure, Integer stopAfterServerErrors) {
        /** The defaults: the adapter's 429 limit, a stop at the first refused key, 5 failures in a row. */
        public static final Rules DEFAULTS = new Rules(null, true, null);
    }

    private final Streak rateLimits;
    private final Streak serverErrors;
    private final String authSource; // null: 401/403 never stop
    private final Consumer<Termination> stop;

    // guarded by this
    private Instant retryAt;
    private boolean retryAtFromHeader;
    private Termination stoppedWith;

    private WireStop(Streak rateLimits, Streak serverErrors, String authSource, Consumer<Termination> stop) {
        this.rateLimits = rateLimits;
        this.serverErrors = serverErrors;
        this.authSource = authSource;
        this.stop = stop;
    }

    /**
     * The stop for one run.
     *
     * @param rules the meter stage's settings
     * @param harness the run's adapter (its own 429 and endpoint-failure limits when the rules set none)
     * @param stop told once, with the termination, when the run must stop
     * @return the stop
     * @throws IllegalArgumentException when the adapter declares a negative 429 limit
     */
    public static WireStop of(Rules rules, Harness harness, Consumer<Termination> stop) {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(stop, "stop");
        Integer own = rules.stopAfterRateLimits();
        int rl = own != null ? own : harness.stopAfterRateLimits();
        if (rl < 0) {
            throw new IllegalArgumentException("adapter " + harness.id() + " declares stopAfterRateLimits() = " + rl
                    + "; it must be 0 (never stop) or more");
        }
        String rlSource = own != null ? "the runner's stopAfterRateLimits(" + rl + ")"
                : "the " + harness.id() + " adapter's stopAfterRateLimits() = " + rl;
        Integer se = rules.stopAfterServerErrors();
        int adapterLimit = harness.stopAfterEndpointFailures();
        if (adapterLimit < 0) {
            throw new IllegalArgumentException("adapter " + harness.id() + " declares stopAfterEndpointFailures() = "
                    + adapterLimit + "; it must be 0 (the runner's limit) or more");
        }
        int serverLimit = se != null ? se : adapterLimit > 0 ? adapterLimit : DEFAULT_SERVER_ERRORS;
        String seSource = se != null ? "stopAfterServerErrors(" + serverLimit + ")"
                : adapterLimit > 0 ? "the " + harness.id() + " adapter's stopAfterEndpointFailures() = " + adapterLimit
                : "stopAfterServerErrors(" + serverLimit + "), the default";
        return new WireStop(new Streak(rl, rlSource), new Streak(serverLimit, seSource),
                rules.stopOnAuthFailure() ? "stopOnAuthFailure, on by default" : null, stop);
    }

    /**
     * Counts a finished request; the one that completes a streak, or a refused key, asks for the stop.
     *
     * @param r the request as the meter recorded it
     */
    public void ended(RequestRecord r) {
        if (!r.modelRequest() || ignored(r.upstreamError())) {
            return;
        }
        Termination t = null;
        synchronized (this) {
            if (r.ok() && !failedOnTheWay(r)) { // a 2xx whose stream broke is no success
                rateLimits.reset();
                serverErrors.reset();
                retryAt = null;
                retryAtFromHeader = false;
            } else if (r.status() == 429) {
                if (r.retryAt() != null) {
                    retryAt = r.retryAt();
                    retryAtFromHeader = r.retryAtFromHeader();
                }
                if (rateLimits.count()) {
                    t = new Termination(Termination.Kind.RATE_LIMITED, "stopped by harness4j after " + rateLimits.inARow
                            + (rateLimits.inARow == 1 ? " rate-limited answer" : " rate-limited answers in a row")
                            + " (HTTP 429, no successful model answer between; " + rateLimits.source + ")"
                            + (retryAt != null ? "; the endpoint said to retry at " + retryAt : ""));
                }
            } else if (authSource != null && Outcomes.refusesKey(r.status(), r.errorMessage())) { // Google's 400 too
                t = new Termination(Termination.Kind.AUTH_REFUSED, "stopped by harness4j at the first refused key: the "
                        + "model endpoint answered HTTP " + r.status() + (r.errorType() != null ? " " + r.errorType() : "")
                        + " to " + r.method() + " " + r.path() + (r.errorMessage() != null && !r.errorMessage().isBlank()
                                ? " (\"" + r.errorMessage().strip() + "\")" : "")
                        + ", which no retry heals; check the provider's key ("
                        + authSource + ")");
            } else if (failedOnTheWay(r) && serverErrors.count()) {
                t = new Termination(Termination.Kind.ENDPOINT_FAILING, "stopped by harness4j after "
                        + serverErrors.inARow + (serverErrors.inARow == 1 ? " failed model request" : " failed model "
                        + "requests in a row") + " (HTTP 5xx or no answer, no successful model answer between; the last: "
                        + failure(r) + "; " + serverErrors.source + ")");
            }
            if (t != null && stoppedWith == null) {
                stoppedWith = t;
            } else {
                t = null;
            }
        }
        if (t != null) {
            stop.accept(t); // the supervisor logs the stop with the run's id
        }
    }

    /** A request the meter refused itself (a budget), the CLI hung up on, or the run's end cancelled. */
    private static boolean ignored(String problem) {
        return problem != null && (problem.startsWith("refused") || problem.startsWith("client-disconnected")
                || problem.startsWith("cancelled"));
    }

    private static boolean failedOnTheWay(RequestRecord r) {
        String p = r.upstreamError();
        return r.status() >= 500 || r.status() < 0 || p != null && (p.startsWith("unreachable") || p.startsWith("reset")
                || p.startsWith("timeout"));
    }

    private static String failure(RequestRecord r) {
        String p = r.upstreamError();
        if (p != null) {
            int colon = p.indexOf(':');
            return colon > 0 ? p.substring(0, colon) : p; // the kind only: the detail may name hosts
        }
        return "HTTP " + r.status();
    }

    /**
     * The termination this stop asked for, or {@code null} when it did not.
     *
     * @return the termination, or {@code null}
     */
    public synchronized Termination stoppedWith() {
        return stoppedWith;
    }

    /**
     * The result with the retry time of the 429s that stopped the run, when it ended
     * rate-limited without one or with one a header's time outranks (a request cancelled by the
     * stop may be the wire's last; the header is the most trusted source, see {@link WireTruth}).
     *
     * @param result the run's result so far
     * @return the result, with this stop's retry time when it knows one from a header, or knows
     *     one and the result had none
     */
    public synchronized HarnessResult settle(HarnessResult result) {
        if (stoppedWith == null || stoppedWith.kind() != Termination.Kind.RATE_LIMITED || retryAt == null
                || result.outcome() != Outcome.RATE_LIMITED || (result.retryAt() != null && !retryAtFromHeader)
                || retryAt.equals(result.retryAt())) {
            return result;
        }
        return new HarnessResult(result.outcome(), result.reason(), result.tokens(), result.cost(), result.servedModel(),
                result.summary(), result.phaseReport(), retryAt, result.sessionId());
    }

    /** A count of failures in a row towards a limit; 0 never reaches it. Guarded by the stop. */
    private static final class Streak {
        final int limit;
        final String source;
        int inARow;

        Streak(int limit, String source) {
            this.limit = limit;
            this.source = source;
        }

        /** Counts one; @return whether the limit is reached */
        boolean count() {
            inARow++;
            return limit > 0 && inARow >= limit;
        }

        void reset() {
            inARow = 0;
        }
    }
}
