package dev.harness4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The helpers moved to {@code dev.harness4j.api.support}; an adapter written against the old names still works. */
@SuppressWarnings("removal")
class DeprecatedForwardersTest {

    @Test
    void theOldOutcomesGivesWhatTheSupportOneGives() {
        String text = "429 Too Many Requests: rate limit reached, retry after 20s";

        assertThat(Outcomes.fromText(text)).isEqualTo(dev.harness4j.api.support.Outcomes.fromText(text))
                .hasValue(Outcome.RATE_LIMITED);
        assertThat(Outcomes.retryAfter(text)).isEqualTo(dev.harness4j.api.support.Outcomes.retryAfter(text)).isPresent();
        assertThat(Outcomes.fromHttpStatus(401)).hasValue(Outcome.AUTH);
        assertThat(Outcomes.fromTermination(new Termination(Termination.Kind.BUDGET, "passed max tokens 10")))
                .hasValue(Outcome.BUDGET);
    }

    @Test
    void aReaderExtendingTheOldStepReaderStillStreamsItsSteps() {
        final class Old extends StepReader {
            @Override
            protected void line(String line) {
                emit(TrajectoryStep.user(line));
            }
        }

        assertThat(new Old().steps(Stream.of("a", "b")).map(TrajectoryStep::message)).containsExactly("a", "b");
        assertThat(new Old()).isInstanceOf(dev.harness4j.api.support.StepReader.class);
    }
}
