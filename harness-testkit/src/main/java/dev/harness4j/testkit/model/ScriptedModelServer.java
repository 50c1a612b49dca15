package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local model API server that plays back a {@link Scenario} per model id, so real coding-agent
 * CLIs run offline and deterministically. It binds {@code 127.0.0.1} on a free port, starts in
 * milliseconds on the JDK's built-in HTTP server, is thread-safe, and records every request.
 *
 * <p>It speaks, streamed (SSE) and not, as the client asks:
 * <ul>
 *   <li>Anthropic Messages: {@code POST /v1/messages} (also {@code ?beta=true}) and {@code POST
 *       /v1/messages/count_tokens};
 *   <li>OpenAI Chat Completions: {@code POST /v1/chat/completions};
 *   <li>OpenAI Responses: {@code POST /v1/responses};
 *   <li>Google's Gemini API: {@code POST /v1beta/models/{model}:streamGenerateContent?alt=sse},
 *       {@code :generateContent} and {@code :countTokens} (the model from the path; the key as
 *       {@code x-goog-api-key} or {@code ?key=}; errors as {@code {"error":{"code","message","status"}}});
 *   <li>model lists: {@code GET /v1/models} ({@code {data:[{id}]}}) and {@code GET /api/tags}
 *       ({@code {models:[{name}]}});
 *   <li>a LiteLLM-style gateway: {@code POST /key/generate}, {@code GET /spend/logs?api_key=}
 *       (the hashed key, as LiteLLM takes it, or the key), {@code POST /key/delete}, {@code GET
 *       /health/readiness}; model calls made with a generated key add spend rows that become
 *       visible in batches after {@link Builder#spendLogDelay}; {@link #gatewayFault} makes the
 *       admin endpoints fail (500, garbage).
 * </ul>
 *
 * <p>Which requests play a step is decided per request: one that offers tools is a conversation
 * turn; one without tools is a side request (answered briefly, no step consumed) when its system
 * prompt asks for a title, a commit message or a summary, or when it comes from Claude Code or
 * opencode (whose real turns always offer tools); any other tool-less request (aider) is a turn.
 * A model that was not {@linkplain #script scripted} answers 404 in the provider's error shape.
 *
 * <p><b>JVM-wide setting:</b> loading this class sets the system property {@code
 * sun.net.httpserver.nodelay} to {@code true} unless it is already set. It turns on TCP_NODELAY
 * for the JDK's built-in HTTP server ({@code com.sun.net.httpserver}), which reads it once per
 * JVM: without it every answer waits about 40 ms for a delayed ACK. Every other {@code
 * com.sun.net.httpserver} server in the same JVM gets the setting too; to keep the JDK's default,
 * set {@code -Dsun.net.httpserver.nodelay=false} (an explicit setting always wins).
 *
 * <pre>{@code
 * try (ScriptedModelServer server = ScriptedModelServer.start()) {
 *     server.script("scripted-a", Scenario.builder().writeFile("hello.txt", "hello\n").build());
 *     server.requireKey("sk-test");
 *     // ANTHROPIC_BASE_URL = server.baseUrl(); OPENAI_API_BASE = server.baseUrl() + "/v1"
 *     assertThat(server.requests()).extracting(RecordedRequest::model).contains("scripted-a");
 * }
 * }</pre>
 */
public final class ScriptedModelServer implements AutoCloseable {
    /** How long a gateway spend row waits before it shows in {@code /spend/logs}: 300 ms. */
    public static final Duration DEFAULT_SPEND_LOG_DELAY = Duration.ofMillis(300);

    private static final Logger log = LoggerFactory.getLogger(ScriptedModelServer.class);

    static {
        // The JDK server writes headers and body in separate small packets; with Nagle's
        // algorithm on, each answer waits ~40 ms for a delayed ACK (measured: 48 ms median round
        // trip against 2.4 ms with TCP_NODELAY). The property is read once, when the JDK server
        // first loads its configuration; an explicit setting by the application wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer http;
    private final ExecutorService executor;
    private final ObjectMapper json = new ObjectMapper();
    private final Planner planner = new Planner(json);
    private final AnthropicMessages anthropic = new AnthropicMessages(json);
    private final ChatCompletions chat = new ChatCompletions(json);
    private final Responses responses = new Responses(json);
    private final GatewayStub gateway;
    private final Map<String, ScriptCursor> scripts = new ConcurrentSkipListMap<>();
    private final List<RecordedRequest> recorded = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile String requiredKey;

    private ScriptedModelServer(Builder b) throws IOException {
        this.gateway = new GatewayStub(json, b.spendLogDelay);
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-model-server-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port), 64);
        http.setExecutor(executor);
        http.createContext("/", new Router(this, json, gateway));
        http.start();
        log.debug("scripted model server listening on {}", baseUrl());
    }

    /**
     * Starts a server on {@code 127.0.0.1} and a free port. Sets the JVM-wide system property
     * {@code sun.net.httpserver.nodelay} unless already set (see the class documentation).
     */
    public static ScriptedModelServer start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Plays {@code scenario} for requests that ask for {@code model}, from its first step (replaces an earlier script). */
    public ScriptedModelServer script(String model, Scenario scenario) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(scenario, "scenario");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model id must not be blank");
        }
        scripts.put(model, new ScriptCursor(scenario));
        return this;
    }

    /** {@code http://127.0.0.1:<port>}, without a trailing slash; OpenAI clients append {@code /v1}. */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort());
    }

    /**
     * A provider that points at this server for {@code model}: Anthropic, OpenAI and Gemini styles, the
     * {@linkplain #requireKey required key} (or {@code sk-scripted} when none is required), sent
     * as an API key.
     */
    public ResolvedProvider provider(String model) {
        String key = requiredKey != null ? requiredKey : "sk-scripted";
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI, ApiStyle.GEMINI),
                baseUrl(),
                Secret.of(key), AuthScheme.API_KEY, model);
    }

    /** The port the server listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /**
     * Requires {@code key} on every model call and model list, as {@code x-api-key}, {@code
     * Authorization: Bearer}, {@code x-goog-api-key} or {@code ?key=}; other keys (and none) get 401. Keys from the gateway's {@code
     * /key/generate} are accepted too. {@code null} accepts any key again.
     */
    public ScriptedModelServer requireKey(String key) {
        if (key != null && key.isBlank()) {
            throw new IllegalArgumentException("required key must not be blank (use null to accept any key)");
        }
        this.requiredKey = key;
        return this;
    }

    /**
     * Makes the gateway endpoints misbehave ({@link GatewayFault#NONE} to stop); model calls are
     * not affected.
     */
    public ScriptedModelServer gatewayFault(GatewayFault fault) {
        gateway.fault(Objects.requireNonNull(fault, "fault"));
        return this;
    }

    /** How many keys the gateway's {@code POST /key/delete} has deleted. */
    public int gatewayDeletedKeys() {
        return gateway.deletedKeys();
    }

    /** How many keys minted by the gateway's {@code POST /key/generate} are live (not deleted, not expired). */
    public int gatewayLiveKeys() {
        return gateway.liveKeys();
    }

    /** Every request received so far, in arrival order. */
    public List<RecordedRequest> requests() {
        return List.copyOf(recorded);
    }

    /** The requests of one kind, in arrival order. */
    public List<RecordedRequest> requests(RecordedRequest.Kind kind) {
        return recorded.stream().filter(r -> r.kind() == kind).collect(Collectors.toUnmodifiableList());
    }

    /** Forgets the recorded requests (scripts keep their position). */
    public void clearRequests() {
        recorded.clear();
    }

    /** The scripted model ids, sorted. */
    public Set<String> models() {
        return Set.copyOf(scripts.keySet());
    }

    /** How many scripted steps of {@code model}'s scenario were played (the final "Done." turns not counted). */
    public int played(String model) {
        ScriptCursor c = scripts.get(model);
        return c == null ? 0 : Math.min(c.played(), c.scenario().steps().size());
    }

    /** Stops the server; stalled answers end at once. Idempotent. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed.countDown();
        http.stop(0);
        executor.shutdownNow();
        log.debug("scripted model server on port {} stopped", port());
    }

    // ---- used by Router -------------------------------------------------------------------

    List<String> scriptedModels() {
        return List.copyOf(scripts.keySet());
    }

    void record(RecordedRequest r) {
        recorded.add(r);
    }

    /** Whether a presented key may call models. */
    boolean authorized(String presented) {
        String required = requiredKey;
        return required == null || required.equals(presented) || gateway.isLiveKey(presented);
    }

    /** Whether a presented key may call the gateway's admin endpoints (the required key, if any). */
    boolean authorizedAdmin(String presented) {
        String required = requiredKey;
        return required == null || required.equals(presented);
    }

    /** Answers one model call of any protocol. */
    void modelCall(HttpExchange ex, Protocol p, JsonNode body, Router.Rec rec, String key) throws IOException {
        ParsedRequest req = p.parse(body, ex.getRequestHeaders());
        rec.model = req.model();
        rec.stream = req.stream();
        rec.tools = req.tools().stream().map(ParsedRequest.ToolSpec::name).collect(Collectors.toList());
        if (!authorized(key)) {
            Router.sendJson(ex, 401, p.error(401, key == null
                    ? "missing API key: send it as x-api-key or Authorization: Bearer"
                    : "invalid API key: the scripted model server requires a different key"), rec);
            return;
        }
        ScriptCursor cursor = req.model() == null ? null : scripts.get(req.model());
        if (req.isSideRequest()) {
            rec.kind = RecordedRequest.Kind.SIDE_REQUEST;
            String as = cursor == null ? null : cursor.scenario().defaultAnswerAs();
            Step step = new Step(new Step.Say(req.sideAnswer()), Usage.SIDE_REQUEST, as);
            answer(ex, p, req, planner.plan(ids.incrementAndGet(), step, withModel(req)), false, rec, key);
            return;
        }
        if (cursor == null) {
            Router.sendJson(ex, 404, p.error(404, "model '" + req.model() + "' is not scripted on this server (scripted: "
                    + scripts.keySet() + "); call ScriptedModelServer.script(model, scenario) first"), rec);
            return;
        }
        Step step = cursor.nextTurn(req.repeatKey());
        rec.kind = RecordedRequest.Kind.TURN;
        rec.step = step;
        Step.Action action = step.action();
        if (action instanceof Step.Fail f) {
            if (f.retryAfter() != null) {
                long secs = Math.max(0, (f.retryAfter().toMillis() + 999) / 1000);
                ex.getResponseHeaders().set("retry-after", Long.toString(secs));
                ex.getResponseHeaders().set("retry-after-ms", Long.toString(f.retryAfter().toMillis()));
            }
            if (f.raw()) {
                Router.send(ex, f.status(), "application/json", f.message().getBytes(StandardCharsets.UTF_8), rec);
            } else {
                Router.sendJson(ex, f.status(), p.error(f.status(), f.message()), rec);
            }
        } else if (action instanceof Step.Stall s) {
            try {
                closed.await(s.duration().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new Router.ConnectionDropped();
        } else if (action instanceof Step.DropConnection) {
            Step partial = new Step(new Step.Say("This answer is cut off in the middle because the"
                    + " scripted scenario drops the connection here."), step.usage(), step.answerAs());
            answer(ex, p, req, planner.plan(ids.incrementAndGet(), partial, withModel(req)), true, rec, key);
        } else {
            answer(ex, p, req, planner.plan(ids.incrementAndGet(), step, withModel(req)), false, rec, key);
        }
    }

    private static ParsedRequest withModel(ParsedRequest req) {
        return req.model() != null ? req : new ParsedRequest("unknown", req.stream(), req.includeUsage(), req.tools(),
                req.systemText(), req.conversation(), req.sessionId(), req.userAgent());
    }

    private void answer(HttpExchange ex, Protocol p, ParsedRequest req, Reply reply, boolean drop, Router.Rec rec,
            String key) throws IOException {
        if (req.stream()) {
            List<SseEvent> events = p.events(req, reply);
            ex.getResponseHeaders().set("content-type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("cache-control", "no-cache");
            rec.responding(200);
            ex.sendResponseHeaders(200, 0);
            OutputStream os = ex.getResponseBody();
            int limit = drop ? Math.max(1, events.size() / 2) : events.size();
            for (int i = 0; i < limit; i++) {
                os.write(events.get(i).wire().getBytes(StandardCharsets.UTF_8));
                os.flush();
            }
            if (drop) {
                throw new Router.ConnectionDropped();
            }
            os.close();
        } else {
            byte[] bytes = p.response(req, reply).toString().getBytes(StandardCharsets.UTF_8);
            if (drop) {
                ex.getResponseHeaders().set("content-type", "application/json");
                rec.responding(200);
                ex.sendResponseHeaders(200, bytes.length);
                ex.getResponseBody().write(bytes, 0, bytes.length / 2);
                ex.getResponseBody().flush();
                throw new Router.ConnectionDropped();
            }
            Router.send(ex, 200, "application/json", bytes, rec);
        }
        if (key != null && gateway.isLiveKey(key)) {
            gateway.recordSpend(key, reply.model(), reply.usage(), "req_scripted_" + reply.id());
        }
    }

    AnthropicMessages anthropic() {
        return anthropic;
    }

    ChatCompletions chat() {
        return chat;
    }

    Responses responses() {
        return responses;
    }

    /** Builds and starts a {@link ScriptedModelServer}. */
    public static final class Builder {
        private Duration spendLogDelay = DEFAULT_SPEND_LOG_DELAY;
        private int port;

        private Builder() {}

        /** How long gateway spend rows wait before they show in {@code /spend/logs} (rows logged meanwhile join the batch). */
        public Builder spendLogDelay(Duration delay) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("spendLogDelay must not be negative, was " + delay);
            }
            this.spendLogDelay = delay;
            return this;
        }

        /** A fixed port instead of a free one (0, the default, picks a free port). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Starts the server. Sets the JVM-wide system property {@code sun.net.httpserver.nodelay}
         * unless already set (see the {@linkplain ScriptedModelServer class documentation}).
         */
        public ScriptedModelServer start() {
            try {
                return new ScriptedModelServer(this);
            } catch (IOException e) {
                throw new HarnessException("could not start the scripted model server on 127.0.0.1:" + port
                        + " (" + e.getMessage() + "); pass port 0 for a free port", e);
            }
        }
    }

}
