package dev.harness4j.meter.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request through the meter: forwarded upstream as it arrives, the answer streamed back
 * chunk by chunk (each flushed at once), the wire read on the way, one {@link RequestRecord} at
 * the end. The run's token is swapped for the real key in the key headers and the {@code key}
 * query parameter ({@link CredentialSwap}). Header values are never logged or kept, except the
 * rate-limit ones.
 */
final class Forwarding {
    /** Bytes of a request body kept to read its {@code model}; the rest only streams through. */
    static final int MAX_REQUEST_CAPTURE = 4 * 1024 * 1024;
    private static final int CHUNK = 16 * 1024;

    /** Never forwarded: hop-by-hop headers, and those the JDK client sets itself. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length", "expect", "http2-settings");

    private final Meter meter;
    private final MeterRun run;
    private final HttpExchange ex;
    private final String rest;
    private final long start = System.nanoTime();
    private final Instant at = Instant.now();
    private final WireStyle style;
    private final String method;
    private volatile InputStream upstreamBody;
    private volatile CompletableFuture<?> pending;
    private volatile boolean cancelled;
    private BodyRecorder.Exchange bodies; // the call's bodies on their way to disk, or null
    private String contentType;
    private String contentEncoding;
    private String query; // the raw query as it goes upstream (the real key swapped in), or null

    Forwarding(Meter meter, MeterRun run, HttpExchange ex, String rest) {
        this.meter = meter;
        this.run = run;
        this.ex = ex;
        this.rest = rest;
        this.method = ex.getRequestMethod();
        this.style = WireStyle.ofPath(rest);
    }

    /** Cancels the upstream exchange (the run is closing). */
    void cancel() {
        cancelled = true;
        CompletableFuture<?> p = pending;
        if (p != null) {
            p.cancel(true);
        }
        closeQuietly(upstreamBody);
    }

    void run() throws IOException {
        boolean modelCall = method.equals("POST") && style != WireStyle.OTHER;
        CredentialSwap credential = run.credential();
        String rawQuery = ex.getRequestURI().getRawQuery();
        query = credential.query(rawQuery);
        if (rawQuery != null && query == null || !credential.acceptsHeaders(ex.getRequestHeaders())) {
            Meter.refuse(ex, 401, CredentialSwap.NOT_LIVE);
            run.end(this, record(401, null, null, new WireReading(style), Map.of(), "refused: "
                    + CredentialSwap.NOT_LIVE, 0, 0));
            return;
        }
        String refusal = run.begin(this, modelCall);
        if (refusal != null) {
            Meter.refuse(ex, 503, refusal);
            run.end(this, record(503, null, null, new WireReading(style), Map.of(), "refused: " + refusal, 0, 0));
            return;
        }
        BodyRecorder recorder = run.bodies;
        bodies = modelCall && recorder != null ? recorder.open() : null;
        Capture capture = new Capture(ex.getRequestBody(), meter.json.getFactory(), bodies == null ? null : bodies.request);
        int status = -1;
        Long firstByte = null;
        long down = 0;
        String problem = null;
        WireReading reading = new WireReading(style);
        Map<String, String> rateLimit = Map.of();
        boolean abort = false;
        try {
            HttpResponse<InputStream> resp;
            try {
                resp = send(capture);
            } catch (IOException | TimeoutException | ExecutionException e) {
                Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                problem = c instanceof HttpConnectTimeoutException || c instanceof ConnectException
                        ? "unreachable: " + c.getClass().getSimpleName()
                        : c instanceof HttpTimeoutException || c instanceof TimeoutException
                                ? "timeout: no answer within " + Meter.RESPONSE_TIMEOUT.toSeconds() + " s"
                                : "unreachable: " + c.getClass().getSimpleName();
                if (cancelled) {
                    problem = "cancelled: the run ended";
                }
                status = 502;
                sendError(502, problem);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                problem = "cancelled: the run ended";
                status = 502;
                sendError(502, problem);
                return;
            }
            status = resp.statusCode();
            upstreamBody = resp.body();
            rateLimit = copyHeaders(resp);
            boolean noBody = method.equals("HEAD") || status == 204 || status == 304 || (status >= 100 && status < 200);
            long length = resp.headers().firstValueAsLong("content-length").orElse(-1);
            String encoding = resp.headers().firstValue("content-encoding").orElse("identity").toLowerCase(Locale.ROOT);
            contentType = resp.headers().firstValue("content-type").orElse(null);
            contentEncoding = encoding;
            BodyReader plain = BodyReader.of(contentType, reading, meter.json);
            BodyReader reader = encoding.equals("identity") || encoding.isEmpty() ? plain
                    : Inflating.of(encoding.strip(), plain);
            if (reader == null) {
                reading.malformed = true; // an encoding the meter cannot read (br, zstd): passed on unread
            }
            ex.sendResponseHeaders(status, noBody ? -1 : length == 0 ? -1 : length > 0 ? length : 0);
            if (cancelled) {
                closeQuietly(upstreamBody);
            }
            byte[] buf = new byte[CHUNK];
            try (InputStream in = upstreamBody) {
                OutputStream out = ex.getResponseBody();
                while (true) {
                    int n;
                    try {
                        n = in.read(buf);
                    } catch (IOException e) {
                        problem = cancelled ? "cancelled: the run ended" : "reset: the upstream stream broke ("
                                + e.getClass().getSimpleName() + ")";
                        abort = true;
                        break;
                    }
                    if (n < 0) {
                        break;
                    }
                    if (n == 0) {
                        continue;
                    }
                    if (firstByte == null) {
                        firstByte = (System.nanoTime() - start) / 1_000_000;
                    }
                    try {
                        out.write(buf, 0, n);
                        out.flush();
                    } catch (IOException e) {
                        problem = "client-disconnected";
                        abort = true;
                        break; // closing the upstream stream (try-with-resources) cancels the upstream request
                    }
                    down += n;
                    if (bodies != null) {
                        bodies.response.write(buf, 0, n); // a copy after the bytes went on; never throws
                    }
                    if (reader != null) {
                        reader.feed(buf, 0, n);
                    }
                    run.activity();
                }
            }
            if (reader != null) {
                reader.finish();
            }
            if (!abort) {
                ex.getResponseBody().close();
            }
        } finally {
            if (!abort) {
                ex.close(); // the CLI has its whole answer before the record is written
            }
            RequestRecord r = record(status, firstByte, capture, reading, rateLimit, problem, capture.total, down);
            if (bodies != null) {
                run.bodies.ended(bodies, r, contentType, contentEncoding);
            }
            run.end(this, r);
            if (abort) {
                throw new AbruptEnd(); // the JDK server then closes the connection without ending the body
            }
        }
    }

    private HttpResponse<InputStream> send(Capture capture)
            throws IOException, InterruptedException, TimeoutException, ExecutionException {
        URI target = URI.create(run.upstreamRoot() + rest + (query == null ? "" : "?" + query));
        HttpRequest.Builder b = HttpRequest.newBuilder(target).timeout(Meter.RESPONSE_TIMEOUT);
        if (target.getScheme().equals("http")) {
            b.version(HttpClient.Version.HTTP_1_1);
        }
        Headers h = ex.getRequestHeaders();
        CredentialSwap credential = run.credential();
        for (Map.Entry<String, List<String>> e : h.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (HOP_BY_HOP.contains(name)) {
                continue;
            }
            boolean key = credential.keyed() && CredentialSwap.HEADERS.contains(name);
            for (String v : e.getValue()) {
                b.header(e.getKey(), key ? credential.header(v) : v);
            }
        }
        long length = -1;
        String cl = h.getFirst("content-length");
        if (cl != null) {
            try {
                length = Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                length = -1;
            }
        }
        boolean chunked = "chunked".equalsIgnoreCase(String.valueOf(h.getFirst("transfer-encoding")).trim());
        HttpRequest.BodyPublisher body;
        if (length > 0) {
            body = HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> capture),
                    length);
        } else if (chunked) {
            body = HttpRequest.BodyPublishers.ofInputStream(() -> capture);
        } else {
            body = HttpRequest.BodyPublishers.noBody();
        }
        b.method(method, body);
        CompletableFuture<HttpResponse<InputStream>> f =
                meter.client.sendAsync(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        pending = f;
        if (cancelled) {
            f.cancel(true);
        }
        try {
            return f.get(Meter.RESPONSE_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.CancellationException e) {
            throw new IOException("cancelled", e);
        } finally {
            if (!f.isDone()) {
                f.cancel(true);
            }
        }
    }

    /** Copies the response headers but the hop-by-hop ones; returns the rate-limit ones, by lower-case name. */
    private Map<String, String> copyHeaders(HttpResponse<?> resp) {
        Map<String, String> rate = new TreeMap<>();
        Headers out = ex.getResponseHeaders();
        for (Map.Entry<String, List<String>> e : resp.headers().map().entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith(":") || HOP_BY_HOP.contains(name)) {
                continue;
            }
            out.put(e.getKey(), e.getValue());
            if (RetryAt.isRateLimitHeader(name) && !e.getValue().isEmpty()) {
                rate.put(name, e.getValue().get(0));
            }
        }
        return rate;
    }

    private void sendError(int status, String why) {
        try {
            Meter.refuse(ex, status, why);
        } catch (IOException e) {
            // the CLI is gone
        }
    }

    /** Thrown out of the handler: the JDK server then closes the connection without ending the chunked body. */
    static final class AbruptEnd extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AbruptEnd() {
            super("the upstream stream or the client broke off", null, false, false);
        }
    }

    private RequestRecord record(int status, Long firstByte, Capture capture, WireReading r, Map<String, String> rateLimit, String problem, long up, long down) {
        // Gemini names the model in the path, the others in the body
        String requested = style == WireStyle.GEMINI ? WireStyle.geminiModel(rest)
                : capture == null ? null : capture.model();
        boolean modelRequest = method.equals("POST") && style != WireStyle.OTHER; // not token counts, lists, probes
        boolean ok = status >= 200 && status < 300;
        boolean complete = ok && problem == null && !r.malformed;
        // nothing was billed, for certain, when the endpoint answered with an error, when it could not be
        // reached, or when the meter refused the request: measured (as 0); a timeout or a broken stream is not
        boolean billedNothing = !ok && status > 0 && (problem == null || problem.startsWith("unreachable")
                || problem.startsWith("refused"));
        boolean measured = modelRequest && ((complete && r.usageSeen) || billedNothing);
        Instant answeredAt = Instant.now();
        Instant fromHeader = status == 429 ? RetryAt.fromHeaders(rateLimit, answeredAt) : null;
        Instant retryAt = status != 429 ? null
                : fromHeader != null ? fromHeader : RetryAt.fromBody(r.errorMessage, r.retryDelay, answeredAt);
        String upstreamError = problem != null ? problem : r.malformed && ok ? "malformed" : null;
        return new RequestRecord(at, method, rest.isEmpty() ? "/" : rest, status,
                (System.nanoTime() - start) / 1_000_000, firstByte, modelRequest, requested,
                ok || r.answeredModel != null ? r.answeredModel : null, measured,
                measured && ok ? r.input : null, measured && ok ? r.output : null,
                measured && ok ? r.cacheRead : null, measured && ok ? r.cacheWrite : null,
                ok ? null : r.errorType, ok ? null : r.errorMessage, rateLimit, retryAt, fromHeader != null, upstreamError, up, down);
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // already broken
            }
        }
    }

    /** The request body on its way upstream; keeps a bounded prefix to read its {@code model}. */
    private static final class Capture extends InputStream {
        private final InputStream in;
        private final com.fasterxml.jackson.core.JsonFactory factory;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final BodyRecorder.Sink tee;
        private long total;

        Capture(InputStream in, com.fasterxml.jackson.core.JsonFactory factory, BodyRecorder.Sink tee) {
            this.in = in;
            this.factory = factory;
            this.tee = tee;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                total += n;
                int keep = Math.min(n, MAX_REQUEST_CAPTURE - kept.size());
                if (keep > 0) {
                    kept.write(b, off, keep);
                }
                if (tee != null) {
                    tee.write(b, off, n);
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        /** The top-level {@code model} of the JSON body (read up to where the kept prefix ends), or null. */
        synchronized String model() {
            byte[] body = kept.toByteArray();
            if (body.length == 0) {
                return null;
            }
            try (JsonParser p = factory.createParser(body)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken v = p.nextToken();
                    if (field.equals("model") && v == JsonToken.VALUE_STRING) {
                        String m = p.getText().strip();
                        return m.isEmpty() ? null : m;
                    }
                    p.skipChildren();
                }
            } catch (IOException | RuntimeException e) {
                return null; // not JSON, or cut before its model
            }
            return null;
        }
    }
}
