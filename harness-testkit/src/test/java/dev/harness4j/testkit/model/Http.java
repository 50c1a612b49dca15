package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A small JDK HttpClient wrapper for protocol tests. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final URI base;

    Http(URI base) {
        this.base = base;
    }

    record Sse(String event, JsonNode data, String raw) {}

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode postJson(String path, String body, String... headers) throws IOException, InterruptedException {
        HttpResponse<String> r = post(path, body, headers);
        if (r.statusCode() != 200) {
            throw new AssertionError("POST " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    static JsonNode json(String s) throws IOException {
        return JSON.readTree(s);
    }

    /** Parses a server-sent events body. */
    static List<Sse> events(String body) throws IOException {
        List<Sse> out = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            String event = null;
            String data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if (data != null) {
                out.add(new Sse(event, data.equals("[DONE]") ? null : JSON.readTree(data), data));
            }
        }
        return out;
    }
}
