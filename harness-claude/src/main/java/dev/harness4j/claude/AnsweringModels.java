package dev.harness4j.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.harness4j.api.Execution;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the models that really answered a run: the {@code message.model} of every assistant
 * message in Claude Code's {@code stream-json} output, in order of first appearance.
 *
 * <p>The envelope's {@code modelUsage} cannot say this: Claude Code keys it by the model it
 * <em>asked</em> for, so a substituting endpoint would always look like a match. The assistant
 * messages carry the id the endpoint answered with. Messages the CLI makes up itself (model
 * {@code <synthetic>}, e.g. for an API error) are skipped. Reads stdout line by line, so memory is
 * bounded by the longest line.
 */
final class AnsweringModels {
    /** The model id Claude Code gives the messages it writes itself (errors, interruptions). */
    static final String SYNTHETIC = "<synthetic>";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private AnsweringModels() {}

    static List<String> of(Execution ex) {
        Set<String> models = new LinkedHashSet<>();
        ex.forEachStdoutLine(line -> {
            String model = modelOf(line);
            if (model != null) {
                models.add(model);
            }
        });
        return new ArrayList<>(models);
    }

    /** The answering model of one output line, or {@code null} when it is no assistant message naming one. */
    static String modelOf(String line) {
        String t = line.strip();
        if (!t.startsWith("{") || !t.contains("\"assistant\"")) {
            return null;
        }
        JsonNode n;
        try {
            n = JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return null;
        }
        if (n == null || !"assistant".equals(n.path("type").asText(null))) {
            return null;
        }
        String model = n.path("message").path("model").asText("").strip();
        return model.isEmpty() || model.equals(SYNTHETIC) ? null : model;
    }
}
