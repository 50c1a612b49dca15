package dev.harness4j.core.provider;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one authenticated health check of a provider endpoint; a 2xx answer is healthy.
 *
 * @param provider the provider's name
 * @param endpoint the URL probed last (the one that answered 2xx when healthy)
 * @param status the HTTP status, or {@code null} when no answer came (refused, timed out)
 * @param healthy whether the endpoint answered 2xx
 * @param detail what happened, in words (never a key)
 * @param elapsed how long the check took
 */
public record HealthCheck(String provider, URI endpoint, Integer status, boolean healthy, String detail,
        Duration elapsed) {

    public HealthCheck {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    public Optional<Integer> statusCode() {
        return Optional.ofNullable(status);
    }
}
