package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RateLimitResetsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T14:00:00Z");

    @Test
    void readsAnIsoTimestamp() {
        assertThat(RateLimitResets.parse("Rate limit exceeded; resets at 2026-11-29T15:30:00Z.", NOW))
                .contains(Instant.parse("2026-11-29T15:30:00Z"));
        assertThat(RateLimitResets.parse("limit resets 2026-11-29 16:00:00+01:00", NOW))
                .contains(Instant.parse("2026-11-29T15:00:00Z"));
    }

    @Test
    void readsEpochSecondsAfterABarOrAResetWord() {
        assertThat(RateLimitResets.parse("Claude AI usage limit reached|1764432000", NOW))
                .contains(Instant.ofEpochSecond(1764432000L));
        assertThat(RateLimitResets.parse("{\"reset\": 1764432000}", NOW))
                .contains(Instant.ofEpochSecond(1764432000L));
    }

    @Test
    void readsATimeOfDayAsItsNextOccurrenceInTheNamedZone() {
        assertThat(RateLimitResets.parse("You've hit your limit · resets 3pm (UTC)", NOW))
                .contains(Instant.parse("2026-11-29T15:00:00Z"));
        assertThat(RateLimitResets.parse("resets 1pm (UTC)", NOW))
                .contains(Instant.parse("2026-11-30T13:00:00Z"));
        assertThat(RateLimitResets.parse("resets 3:30pm (Europe/Berlin)", NOW))
                .contains(Instant.parse("2026-11-29T14:30:00Z"));
    }

    @Test
    void readsARelativeWaitFromNow() {
        assertThat(RateLimitResets.parse("429 Too Many Requests, retry-after: 30", NOW))
                .contains(NOW.plusSeconds(30));
        assertThat(RateLimitResets.parse("please try again in 2 minutes", NOW))
                .contains(NOW.plusSeconds(120));
        assertThat(RateLimitResets.parse("retry after 1500ms", NOW))
                .contains(NOW.plusMillis(1500));
    }

    @Test
    void saysNothingWhenTheTextNamesNoTime() {
        assertThat(RateLimitResets.parse("API Error: 429 rate_limit_error", NOW)).isEmpty();
        assertThat(RateLimitResets.parse("", NOW)).isEmpty();
        assertThat(RateLimitResets.parse(null, NOW)).isEmpty();
    }
}
