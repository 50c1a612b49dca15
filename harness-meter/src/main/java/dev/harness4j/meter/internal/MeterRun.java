package dev.harness4j.meter.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.provider.ModelPrice;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's metering: its provider as the adapter sees it (pointing at the meter), the running
 * totals, the budget, and {@code requests.jsonl}. Thread-safe: each request is forwarded on its
 * own thread. {@link #close()} unregisters the token (later requests are refused), cancels what
 * is in flight; {@link #finish()} returns the {@link MeterReport}. Both idempotent.
 */
public final class MeterRun implements AutoCloseable {
    /** At most this many requests are written to {@code requests.jsonl}; the rest are counted. */
    public static final int MAX_RECORDS = 10_000;

    private static final Logger log = LoggerFactory.getLogger(MeterRun.class);

    /** What the run's guard hears from the meter. */
    public interface Hooks {
        /** A model request started or streamed: activity for the inactivity guard. */
        void activity();

        /** A metered total passed a budget limit: stop the run. */
        void budgetPassed(String reason);

        /** A request ended, as recorded (e.g. for {@link WireStop}); by default ignored. */
        default void requestEnded(RequestRecord r) {}

        /** Hears nothing. */
        Hooks NONE = new Hooks() {
            @Override
            public void activity() {}

            @Override
            public void budgetPassed(String reason) {}
        };
    }

    private final Meter meter;
    private final String runId;
    private final String token;
    private final CredentialSwap credential;
    private final ResolvedProvider provider;
    private final String upstreamRoot;
    private final Hooks hooks;
    private final Limits limits;
    private final ModelPrice price;
    private final BufferedWriter requestsFile;
    private final Set<Forwarding> inFlight = ConcurrentHashMap.newKeySet();
    /** Keeps the model calls' bodies when the run records them, else null; set once by {@link Meter#open}. */
    volatile BodyRecorder bodies;

    // guarded by this
    private int requests;
    private int modelRequestsStarted;
    private int modelRequests;
    private int measured;
    private int withUsage;
    private final long[] sums = new long[4];
    private final boolean[] absent = new boolean[4];
    private final Set<String> answered = new LinkedHashSet<>();
    /** The answers to requests that asked for the run's model (or named none). */
    private final Set<String> answeredForRunModel = new LinkedHashSet<>();
    private final String runModel;
    private RequestRecord lastModel;
    private RequestRecord last;
    private int written;
    private int omitted;
    private String budgetPassed;
    private MeterReport report;

    MeterRun(Meter meter, String runId, String token, CredentialSwap credential, ResolvedProvider real,
            ResolvedProvider viaMeter, Hooks hooks, Limits limits, ModelPrice price, Path requestsFile)
            throws IOException {
        this.meter = meter;
        this.runId = runId;
        this.token = token;
        this.credential = credential;
        this.provider = viaMeter;
        this.upstreamRoot = real.rootUrl();
        this.runModel = real.model();
        this.hooks = hooks;
        this.limits = limits;
        this.price = price;
        Files.createDirectories(requestsFile.toAbsolutePath().getParent());
        this.requestsFile = Files.newBufferedWriter(requestsFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    /**
     * The provider the adapter gets: the real one with its base URL pointing at the meter and, when
     * the real one has a key, a per-run token for its secret (valid on this run's meter path while
     * the run is live; the meter sends the real key upstream).
     */
    public ResolvedProvider provider() {
        return provider;
    }

    CredentialSwap credential() {
        return credential;
    }

    String upstreamRoot() {
        return upstreamRoot;
    }

    void activity() {
        hooks.activity();
    }

    /** A request arrived; returns why it is refused (the run passed its budget or ended), or null to forward it. */
    synchronized String begin(Forwarding f, boolean modelCall) {
        if (report != null) {
            return "the run has ended";
        }
        if (budgetPassed != null) {
            return "the run passed its budget: " + budgetPassed;
        }
        if (modelCall) {
            modelRequestsStarted++;
            if (limits.maxModelRequests() != null && modelRequestsStarted > limits.maxModelRequests()) {
                pass("passed max model requests " + limits.maxModelRequests() + " (request "
                        + modelRequestsStarted + ")");
                return "the run passed its budget: " + budgetPassed;
            }
        }
        inFlight.add(f);
        hooks.activity();
        return null;
    }

    /** A request ended: count it, write it, check the budget. */
    void end(Forwarding f, RequestRecord r) {
        synchronized (this) {
            inFlight.remove(f); // under the lock: finish() must not see the run idle before this request is counted
            requests++;
            last = r;
            if (r.modelRequest()) {
                modelRequests++;
                lastModel = r;
                if (r.answeredModel() != null) {
                    answered.add(r.answeredModel());
                    if (r.requestedModel() == null || ModelMatch.matches(runModel, r.requestedModel())) {
                        answeredForRunModel.add(r.answeredModel());
                    }
                }
                if (r.measured()) {
                    measured++;
                }
                if (r.measured() && r.ok()) {
                    withUsage++;
                }
                Long[] figures = {r.input(), r.output(), r.cacheRead(), r.cacheWrite()};
                for (int i = 0; i < 4; i++) {
                    if (figures[i] != null) {
                        sums[i] += figures[i];
                    } else if (!r.measured() || r.ok()) {
                        absent[i] = true; // unmeasured, or measured without this figure; a refused request billed nothing
                    }
                }
            }
            write(r);
            if (budgetPassed == null && report == null) {
                checkBudget();
            }
            notifyAll();
        }
        hooks.activity();
        hooks.requestEnded(r);
    }

    private void checkBudget() {
        long tokens = sums[0] + sums[1] + sums[2] + sums[3];
        if (limits.maxTokens() != null && tokens > limits.maxTokens()) {
            pass("passed max tokens " + limits.maxTokens() + " (metered " + tokens + ")");
            return;
        }
        if (limits.maxCostUsd() != null && price != null) {
            BigDecimal cost = price.cost(new TokenUsage(sums[0], sums[1], sums[2], sums[3], TokenUsage.Source.METERED))
                    .orElse(null);
            if (cost != null && cost.compareTo(limits.maxCostUsd()) > 0) {
                pass("passed max cost $" + limits.maxCostUsd().toPlainString() + " (metered $" + cost.toPlainString()
                        + ")");
            }
        }
    }

    private void pass(String reason) {
        budgetPassed = reason;
        log.info("run {}: {}; stopping it", runId, reason);
        hooks.budgetPassed(reason);
    }

    private void write(RequestRecord r) {
        if (written >= MAX_RECORDS) {
            omitted++;
            return;
        }
        try {
            ObjectNode n = meter.json.createObjectNode();
            n.put("at", r.at().toString());
            n.put("method", r.method());
            n.put("path", r.path());
            n.put("status", r.status());
            n.put("latency_ms", r.latencyMs());
            if (r.firstByteMs() == null) {
                n.putNull("first_byte_ms");
            } else {
                n.put("first_byte_ms", r.firstByteMs());
            }
            n.put("model_request", r.modelRequest());
            n.put("requested_model", r.requestedModel());
            n.put("answered_model", r.answeredModel());
            n.put("measured", r.measured());
            ObjectNode u = n.putObject("usage");
            put(u, "input", r.input());
            put(u, "output", r.output());
            put(u, "cache_read", r.cacheRead());
            put(u, "cache_write", r.cacheWrite());
            if (price != null && r.measured()) { // this call's cost at the model's price, for a live view's "so far"
                price.cost(new TokenUsage(r.input(), r.output(), r.cacheRead(), r.cacheWrite(), TokenUsage.Source.METERED))
                        .ifPresent(c -> n.put("cost_usd", c));
            }
            n.put("error_type", r.errorType());
            n.put("error_message", r.errorMessage());
            ObjectNode rl = n.putObject("rate_limit");
            r.rateLimit().forEach(rl::put);
            n.put("retry_at", r.retryAt() == null ? null : r.retryAt().toString());
            if (r.retryAt() != null) {
                n.put("retry_at_from", r.retryAtFromHeader() ? "header" : "body");
            }
            n.put("upstream_error", r.upstreamError());
            n.put("bytes_up", r.bytesUp());
            n.put("bytes_down", r.bytesDown());
            requestsFile.write(meter.json.writeValueAsString(n));
            requestsFile.write('\n');
            requestsFile.flush();
            written++;
        } catch (IOException e) {
            omitted++;
            log.debug("run {}: could not write a request record: {}", runId, e.toString());
        }
    }

    private static void put(ObjectNode n, String k, Long v) {
        if (v == null) {
            n.putNull(k);
        } else {
            n.put(k, v);
        }
    }

    /** Waits up to {@code d} for the requests in flight to end. */
    private synchronized void awaitIdle(java.time.Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
            try {
                wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Same as {@link #finish()}, the report dropped. */
    @Override
    public void close() {
        finish();
    }

    /** Whether this run passed a budget; the reason, or null. */
    public synchronized String budgetPassed() {
        return budgetPassed;
    }

    /**
     * Ends the run's metering: later requests are refused, those in flight cancelled and waited
     * for (up to {@link Meter#CLOSE_TIMEOUT}); returns what the wire showed. Idempotent.
     */
    public MeterReport finish() {
        synchronized (this) {
            if (report != null) {
                return report;
            }
        }
        meter.unregister(token);
        awaitIdle(Meter.FINISH_GRACE); // an answer the CLI has read whole may still be on its way to end()
        List<Forwarding> flying = new ArrayList<>(inFlight);
        flying.forEach(Forwarding::cancel);
        synchronized (this) {
            awaitIdle(Meter.CLOSE_TIMEOUT);
            if (report != null) {
                return report;
            }
            if (omitted > 0) {
                try {
                    requestsFile.write("{\"omitted_requests\":" + omitted + "}\n");
                } catch (IOException e) {
                    log.debug("run {}: could not write to requests.jsonl: {}", runId, e.toString());
                }
            }
            if (bodies != null) {
                bodies.close();
            }
            try {
                requestsFile.close();
            } catch (IOException e) {
                log.debug("run {}: could not close requests.jsonl: {}", runId, e.toString());
            }
            TokenUsage tokens = TokenUsage.unmeasured();
            Long[] f = new Long[4];
            boolean any = false;
            for (int i = 0; i < 4; i++) {
                f[i] = withUsage == 0 || absent[i] ? null : sums[i]; // no usage on the wire at all: unmeasured, not 0
                any |= f[i] != null;
            }
            if (any) {
                tokens = new TokenUsage(f[0], f[1], f[2], f[3], TokenUsage.Source.METERED);
            }
            report = new MeterReport(requests, modelRequests, measured, tokens, List.copyOf(answered),
                    List.copyOf(answeredForRunModel), lastModel, last, budgetPassed);
            return report;
        }
    }
}
