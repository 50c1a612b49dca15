package dev.harness4j.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class StepReaderTest {
    /** A step per "say:" line; "end" stops the reading; what is open at the end is emitted by end(). */
    private static final class Lines extends StepReader {
        final List<String> read = new ArrayList<>();
        StringBuilder open;

        @Override
        protected void line(String line) {
            read.add(line);
            if (line.equals("end")) {
                stop();
            } else if (line.startsWith("say:")) {
                if (open != null) {
                    emit(TrajectoryStep.agent(null, open.toString()));
                }
                open = new StringBuilder(line.substring(4));
            } else if (open != null) {
                open.append(' ').append(line);
            }
        }

        @Override
        protected void end() {
            if (open != null) {
                emit(TrajectoryStep.agent(null, open.toString()));
                open = null;
            }
        }
    }

    @Test
    void stepsAreReadLazilyInOrderAndTheOpenOneIsEmittedAtTheEnd() {
        Lines reader = new Lines();
        Iterator<TrajectoryStep> steps = reader.steps(Stream.of("noise", "say:a", "more", "say:b", "say:c", "tail"))
                .iterator();

        assertThat(steps.next().message()).isEqualTo("a more");
        assertThat(reader.read).as("nothing read past the line that completed the step")
                .containsExactly("noise", "say:a", "more", "say:b");
        assertThat(steps.next().message()).isEqualTo("b");
        assertThat(steps.next().message()).isEqualTo("c tail");
        assertThat(steps.hasNext()).isFalse();
    }

    @Test
    void stopEndsTheReadingAndClosingTheStreamClosesTheLines() {
        AtomicBoolean closed = new AtomicBoolean();
        Lines reader = new Lines();
        List<String> messages;
        try (Stream<TrajectoryStep> s = reader.steps(Stream.of("say:x", "end", "say:never").onClose(() -> closed.set(true)))) {
            messages = s.map(TrajectoryStep::message).toList();
        }

        assertThat(messages).containsExactly("x");
        assertThat(reader.read).doesNotContain("say:never");
        assertThat(closed).isTrue();
    }

    @Test
    void aReaderReadsOneOutputOnce() {
        Lines reader = new Lines();
        reader.steps(Stream.empty());

        assertThatThrownBy(() -> reader.steps(Stream.empty())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one output once");
        assertThat(new Lines().steps(Stream.of("noise"))).isEmpty();
    }
}
