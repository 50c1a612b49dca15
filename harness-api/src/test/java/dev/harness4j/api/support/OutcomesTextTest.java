package dev.harness4j.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The text classification helpers in the providers' own wordings, and the small test factories. */
class OutcomesTextTest {
    @TempDir
    Path tmp;

    @Test
    void retryAfterReadsSecondsMinutesAndTryAgainIn() {
        assertThat(Outcomes.retryAfter("HTTP 429, retry-after: 30")).contains(Duration.ofSeconds(30));
        assertThat(Outcomes.retryAfter("Rate limit reached. Please try again in 6.5s.")).contains(Duration.ofMillis(6500));
        assertThat(Outcomes.retryAfter("Please try again in 1m30s")).contains(Duration.ofSeconds(90));
        assertThat(Outcomes.retryAfter("rate limited, retry after 2 minutes")).contains(Duration.ofMinutes(2));
        assertThat(Outcomes.retryAfter("try again in 250ms")).contains(Duration.ofMillis(250));
        assertThat(Outcomes.retryAfter("Your limit resets in 1h")).contains(Duration.ofHours(1));
        assertThat(Outcomes.retryAfter("rate limit exceeded")).isEmpty();
        assertThat(Outcomes.retryAfter(null)).isEmpty();
    }

    @Test
    void anOutOfQuotaTextIsRateLimitedWithTheResetItNames() {
        assertThat(Outcomes.fromText("429 {\"error\":{\"message\":\"You exceeded your current quota, please check your"
                + " plan and billing details.\",\"type\":\"insufficient_quota\"}}")).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("Quota exceeded for quota metric 'Generate Content API requests per day'"))
                .contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("Claude AI usage limit reached|1764604800")).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("the quota of this disk is fine")).isEmpty();

        assertThat(Outcomes.resetAt("Claude AI usage limit reached|1764604800")).contains(Instant.ofEpochSecond(1764604800));
        assertThat(Outcomes.resetAt("{\"error\":\"quota exceeded\",\"resets_at\": 1764604800}"))
                .contains(Instant.ofEpochSecond(1764604800));
        assertThat(Outcomes.resetAt("Your quota resets at 2026-12-01T15:00:00Z")).contains(Instant.parse("2026-12-01T15:00:00Z"));
        assertThat(Outcomes.resetAt("{\"reset_at\": \"2026-12-01T16:00:00+01:00\"}")).contains(Instant.parse("2026-12-01T15:00:00Z"));
        assertThat(Outcomes.resetAt("created 2026-12-01T15:00:00Z, id 1764604800")).isEmpty(); // no reset word, no bar
        assertThat(Outcomes.resetAt(null)).isEmpty();
    }

    @Test
    void googlesFourHundredForAKeyItDoesNotKnowIsARefusedKeyLikeA401() {
        String google = "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a valid API key.\","
                + "\"status\":\"INVALID_ARGUMENT\",\"details\":[{\"reason\":\"API_KEY_INVALID\"}]}}";
        assertThat(Outcomes.refusesKey(400, google)).isTrue();
        assertThat(Outcomes.refusesKey(400, "{\"reason\":\"API_KEY_INVALID\"}")).isTrue();
        assertThat(Outcomes.refusesKey(401, null)).isTrue();
        assertThat(Outcomes.refusesKey(403, "")).isTrue();
        assertThat(Outcomes.refusesKey(400, "{\"error\":{\"message\":\"Invalid JSON payload\"}}")).isFalse();
        assertThat(Outcomes.refusesKey(500, google)).as("a server error quoting it is no refusal").isFalse();

        assertThat(Outcomes.fromHttpAnswer(400, google)).contains(Outcome.AUTH);
        assertThat(Outcomes.fromHttpAnswer(400, "This model's maximum context length is 8192 tokens"))
                .contains(Outcome.CONTEXT_OVERFLOW);
        assertThat(Outcomes.fromHttpAnswer(400, "Invalid JSON payload")).contains(Outcome.BAD_REQUEST);
        assertThat(Outcomes.fromHttpAnswer(429, null)).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromHttpAnswer(200, google)).isEmpty();
    }

    @Test
    void fromTextClassifiesTheCommonWordings() {
        assertThat(Outcomes.fromText("anthropic: 401 {\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}"))
                .contains(Outcome.AUTH);
        assertThat(Outcomes.fromText("Incorrect API key provided: sk-...")).contains(Outcome.AUTH);
        assertThat(Outcomes.fromText("Error: 429 Too Many Requests")).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("litellm.RateLimitError: rate_limit_exceeded")).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("RESOURCE_EXHAUSTED: quota")).contains(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromText("529 {\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}"))
                .contains(Outcome.TRANSIENT);
        assertThat(Outcomes.fromText("502 Bad Gateway")).contains(Outcome.TRANSIENT);
        assertThat(Outcomes.fromText("This model's maximum context length is 8192 tokens")).contains(Outcome.CONTEXT_OVERFLOW);
        assertThat(Outcomes.fromText("prompt is too long: 210000 tokens > 200000 maximum")).contains(Outcome.CONTEXT_OVERFLOW);
        assertThat(Outcomes.fromText("The input token count exceeds the maximum")).contains(Outcome.CONTEXT_OVERFLOW);
        assertThat(Outcomes.fromText("The input token count (1196266) exceeds the maximum number of tokens allowed (1048576)."))
                .contains(Outcome.CONTEXT_OVERFLOW);
        assertThat(Outcomes.fromText("wrote 3 files")).isEmpty();
        assertThat(Outcomes.fromText(null)).isEmpty();
    }

    @Test
    void retryAtIsTheEndInstantPlusTheWaitWithoutReadingTheClock() throws Exception {
        Execution ex = execution();
        Instant end = Instant.parse("2026-01-01T00:00:00Z");
        Execution dated = new Execution(ex.context(), ex.invocation(), 1, Termination.exited(), ex.stdout(), ex.stderr(),
                ex.changes(), Duration.ofSeconds(3), end);
        assertThat(Outcomes.retryAt(dated, "try again in 20s")).contains(end.plusSeconds(20));
        assertThat(dated.startedAt()).as("derived by the old constructor").isEqualTo(end.minusSeconds(3));
        Execution undated = new Execution(ex.context(), ex.invocation(), 1, Termination.exited(), ex.stdout(),
                ex.stderr(), ex.changes(), Duration.ofSeconds(3));
        assertThat(Outcomes.retryAt(undated, "try again in 20s")).isEmpty();
        assertThat(undated.startedAt()).isNull();
        // an out-of-quota reset instant needs no end instant
        assertThat(Outcomes.retryAt(undated, "usage limit reached|1764604800")).contains(Instant.ofEpochSecond(1764604800));
        assertThat(Outcomes.retryAt(dated, "quota exceeded; resets at 2026-01-01T05:00:00Z"))
                .contains(Instant.parse("2026-01-01T05:00:00Z"));
    }

    @Test
    void theStartIsStoredNotDerivedAndMustNotFollowTheEnd() throws Exception {
        Execution ex = execution();
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        Instant end = start.plusSeconds(90);
        Execution stored = new Execution(ex.context(), ex.invocation(), 0, Termination.exited(), ex.stdout(),
                ex.stderr(), ex.changes(), Duration.ofSeconds(2), start, end); // duration need not be end - start
        assertThat(stored.startedAt()).isEqualTo(start);
        assertThat(stored.finishedAt()).isEqualTo(end);
        assertThat(stored.withChanges(ex.changes()).startedAt()).isEqualTo(start);
        assertThat(stored.withTermination(Termination.exited()).startedAt()).isEqualTo(start);
        Execution timed = ex.withTimes(start, end);
        assertThat(timed.duration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(timed.startedAt()).isEqualTo(start);
        assertThat(Execution.exited(ex.context(), ex.invocation(), 0, ex.stdout(), ex.stderr()).startedAt()).isNotNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Execution(ex.context(), ex.invocation(), 0,
                Termination.exited(), ex.stdout(), ex.stderr(), ex.changes(), Duration.ZERO, end, start))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before startedAt");
    }

    @Test
    void factoriesBuilderOutcomeAndStderrTail() throws Exception {
        Execution ex = execution();
        Files.writeString(ex.stderr(), "line one\r\nError: 429 Too Many Requests\n");
        assertThat(ex.stderrTailText(22)).isEqualTo("429 Too Many Requests\n");
        assertThat(ex.stderrTailText(4096)).doesNotContain("\r");
        Execution changed = ex.withChanges(GitChanges.dirty(GitChanges.NO_COMMIT, 2, 0, "a.txt"));
        assertThat(changed.changes().changed()).isTrue();
        assertThat(Outcomes.opaque(changed)).isEqualTo(Outcome.COMPLETED);
        assertThat(Outcomes.opaque(ex.withTermination(new Termination(Termination.Kind.MAX_RUNTIME, "4 s"))))
                .isEqualTo(Outcome.TIMEOUT);
        HarnessResult r = HarnessResult.builder(Outcomes.opaque(ex), "m").reason("x")
                .outcome(Outcomes.fromText(ex.stderrTailText(4096)).orElse(Outcome.ERROR)).build();
        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.reason()).isEqualTo("x");
    }

    private Execution execution() throws Exception {
        ResolvedProvider p = new ResolvedProvider("p", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:9"),
                Secret.of("k"), AuthScheme.API_KEY, "m");
        HarnessContext c = HarnessContext.builder().prompt("hi").provider(p).workspace(tmp).scratchDir(tmp)
                .executable("/bin/true").build();
        Invocation inv = Invocation.builder("/bin/true").workingDir(tmp).build();
        return Execution.exited(c, inv, 0, tmp.resolve("out"), tmp.resolve("err"));
    }
}
