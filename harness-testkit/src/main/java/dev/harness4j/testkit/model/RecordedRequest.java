package dev.harness4j.testkit.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One request the {@link ScriptedModelServer} received, for assertions. It keeps which auth
 * headers were present, never their values; {@link #toString()} leaves out the body.
 *
 * @param at when the request arrived
 * @param method the HTTP method
 * @param path the request path, without the query
 * @param query the raw query, or {@code null}
 * @param protocol the API it spoke ({@code anthropic-messages}, {@code chat-completions}, {@code
 *     responses}, {@code models}, {@code gateway}, ...)
 * @param model the model asked for, or {@code null}
 * @param stream whether a streamed answer was asked for
 * @param tools the names of the tools offered, in order
 * @param authHeaders the lower-case names of the auth headers present ({@code x-api-key}, {@code
 *     authorization})
 * @param kind what the server made of the request
 * @param step the scripted step it played, or {@code null} (side requests, lists, errors)
 * @param status the HTTP status answered ({@code -1} when the connection was closed without one)
 * @param body the request body as text (may be long)
 */
public record RecordedRequest(Instant at, String method, String path, String query, String protocol, String model,
        boolean stream, List<String> tools, Set<String> authHeaders, Kind kind, Step step, int status, String body) {

    public RecordedRequest {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        tools = List.copyOf(tools);
        authHeaders = Set.copyOf(authHeaders);
        Objects.requireNonNull(kind, "kind");
        body = Objects.requireNonNullElse(body, "");
    }

    /** What the server made of a request. */
    public enum Kind {
        /** A conversation turn: it played a step (or the final "Done." turn). */
        TURN,
        /** A side request without tools (title, commit message): answered briefly, no step consumed. */
        SIDE_REQUEST,
        /** Anything else: model lists, token counts, gateway calls, rejected requests. */
        OTHER
    }

    @Override
    public String toString() {
        return "RecordedRequest[" + method + " " + path + (query == null ? "" : "?" + query) + " protocol=" + protocol
                + " model=" + model + " stream=" + stream + " tools=" + tools + " auth=" + authHeaders
                + " kind=" + kind + " step=" + step + " status=" + status + "]";
    }
}
