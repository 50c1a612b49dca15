package dev.harness4j.meter.internal;

import java.time.Instant;
import java.util.Map;

/**
 * One request through the meter, as written to {@code requests.jsonl}: never a header value but
 * the rate-limit ones, never a body, never the run's path token or the query.
 *
 * @param at when the request arrived
 * @param method the HTTP method
 * @param path the path below the endpoint root, without the token and the query
 * @param status the status the CLI got ({@code 502} when the upstream was unreachable, {@code
 *     -1} when none was sent)
 * @param latencyMs from arrival to the last byte passed on
 * @param firstByteMs from arrival to the first body byte from upstream, or {@code null}
 * @param modelRequest whether the request is a model call (a POST to messages, chat/completions,
 *     completions, responses, api/chat or api/generate)
 * @param requestedModel the model the request asked for (in its body; in its path for Gemini), or {@code null}
 * @param answeredModel the model the response named, or {@code null}
 * @param measured whether the usage is known: read from the wire, or nothing billed (no 2xx)
 * @param input uncached input tokens, or {@code null}
 * @param output output tokens, or {@code null}
 * @param cacheRead cache-read tokens, or {@code null}
 * @param cacheWrite cache-write tokens, or {@code null}
 * @param errorType the error type of a non-2xx body, or {@code null}
 * @param errorMessage the error message of a non-2xx body (cut), or {@code null}
 * @param rateLimit the rate-limit headers of the response (name → value)
 * @param retryAt when a 429 says to retry, or {@code null}
 * @param retryAtFromHeader whether {@code retryAt} came from a header ({@code retry-after} and the
 *     rate-limit ones, the most trusted source) rather than the body's words
 * @param upstreamError what went wrong on the way ({@code unreachable}, {@code timeout}, {@code
 *     reset}, {@code client-disconnected}, {@code malformed}, {@code refused: ...}), or {@code null}
 * @param bytesUp request body bytes passed upstream
 * @param bytesDown response body bytes passed to the CLI
 */
public record RequestRecord(Instant at, String method, String path, int status, long latencyMs, Long firstByteMs,
        boolean modelRequest, String requestedModel, String answeredModel, boolean measured, Long input, Long output,
        Long cacheRead, Long cacheWrite, String errorType, String errorMessage, Map<String, String> rateLimit,
        Instant retryAt, boolean retryAtFromHeader, String upstreamError, long bytesUp, long bytesDown) {

    public RequestRecord {
        rateLimit = Map.copyOf(rateLimit);
    }

    /** Whether the status is a success (2xx); @return whether it is */
    public boolean ok() {
        return status >= 200 && status < 300;
    }
}
