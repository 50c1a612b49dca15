package dev.harness4j.cline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.StepReader;
import dev.harness4j.api.TrajectoryStep;
import java.util.stream.Stream;

/** The agent steps of a run from Cline's {@code --json} events, read lazily. */
final class ClineTrajectory extends StepReader {
    static Stream<TrajectoryStep> of(Execution ex) {
        return new ClineTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void line(String raw) {
        JsonNode e = ClineEvents.object(raw);
        if (e == null) {
            return;
        }
        if ("run_result".equals(e.path("type").asText()) && !"error".equals(e.path("finishReason").asText())) {
            emit(TrajectoryStep.agent(null, e.path("text").asText("")));
        }
    }
}
