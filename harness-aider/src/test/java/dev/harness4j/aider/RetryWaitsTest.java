package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryWaitsTest {
    @Test
    void readsTheWaitsEndpointsWriteIntoTheirErrorBodies() {
        assertThat(RetryWaits.in("Rate limit reached for requests. Please try again in 20s.")).contains(Duration.ofSeconds(20));
        assertThat(RetryWaits.in("Please try again in 1m30s.")).contains(Duration.ofSeconds(90));
        assertThat(RetryWaits.in("Please try again in 2.5s")).contains(Duration.ofMillis(2500));
        assertThat(RetryWaits.in("Please try again in 850ms.")).contains(Duration.ofMillis(850));
        assertThat(RetryWaits.in("retry after 30 seconds")).contains(Duration.ofSeconds(30));
        assertThat(RetryWaits.in("Try again in 5 minutes")).contains(Duration.ofMinutes(5));
        assertThat(RetryWaits.in("retry-after: 7")).contains(Duration.ofSeconds(7));
    }

    @Test
    void theLastWaitWinsAndTextsWithoutOneHaveNone() {
        assertThat(RetryWaits.in("try again in 5s ... (later) try again in 12s")).contains(Duration.ofSeconds(12));
        assertThat(RetryWaits.in("The API provider has rate limited you. Try again later or check your quotas.")).isEmpty();
        assertThat(RetryWaits.in(null)).isEmpty();
    }
}
