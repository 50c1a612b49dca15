package dev.harness4j.core.internal.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.AcpPermissions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The answer to one {@code session/request_permission} under a policy: the offered option of kind
 * {@code allow_once} (else {@code allow_always}) to allow, {@code reject_once} (else {@code
 * reject_always}) to reject, or the {@code cancelled} outcome when no option fits. Under {@link
 * AcpPermissions#ALLOW_IN_WORKSPACE} a tool call is allowed when every path it names (its {@code
 * locations}, and the {@code rawInput} fields whose names end in {@code path}) is inside the
 * workspace.
 */
final class AcpPermissionAnswer {
    private final AcpPermissions policy;
    private final Path workspace;

    AcpPermissionAnswer(AcpPermissions policy, Path workspace) {
        this.policy = policy;
        this.workspace = workspace;
    }

    ObjectNode answer(JsonNode params, ObjectMapper json) {
        boolean allow = switch (policy) {
            case ALLOW_ALL -> true;
            case REJECT_ALL -> false;
            case ALLOW_IN_WORKSPACE -> insideWorkspace(params.path("toolCall"));
        };
        String option = allow ? option(params, "allow_once", "allow_always") : option(params, "reject_once", "reject_always");
        ObjectNode result = json.createObjectNode();
        ObjectNode outcome = result.putObject("outcome");
        if (option == null) {
            outcome.put("outcome", "cancelled");
        } else {
            outcome.put("outcome", "selected").put("optionId", option);
        }
        return result;
    }

    boolean insideWorkspace(JsonNode toolCall) {
        for (String p : paths(toolCall)) {
            try {
                Path resolved = workspace.resolve(p).normalize();
                if (!resolved.startsWith(workspace)) {
                    return false;
                }
            } catch (InvalidPathException e) {
                return false;
            }
        }
        return true;
    }

    private static List<String> paths(JsonNode toolCall) {
        List<String> out = new ArrayList<>();
        for (JsonNode loc : toolCall.path("locations")) {
            if (loc.path("path").isTextual()) {
                out.add(loc.path("path").asText());
            }
        }
        JsonNode raw = toolCall.path("rawInput");
        for (Iterator<Map.Entry<String, JsonNode>> it = raw.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getKey().toLowerCase(java.util.Locale.ROOT).endsWith("path") && f.getValue().isTextual()) {
                out.add(f.getValue().asText());
            }
        }
        return out;
    }

    private static String option(JsonNode params, String first, String second) {
        String fallback = null;
        for (JsonNode o : params.path("options")) {
            String kind = o.path("kind").asText("");
            if (kind.equals(first)) {
                return o.path("optionId").asText(null);
            }
            if (kind.equals(second) && fallback == null) {
                fallback = o.path("optionId").asText(null);
            }
        }
        return fallback;
    }
}
