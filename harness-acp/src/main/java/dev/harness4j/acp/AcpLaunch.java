package dev.harness4j.acp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/** An agent's row rendered for one run: the launch {@link Invocation}. Pure: no I/O. */
final class AcpLaunch {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AcpLaunch() {}

    static Invocation of(AcpAgent agent, HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Map<String, String> values = Map.of(
                "model", context.model(),
                "workspace", workspace.toString(),
                "scratch", context.scratchDir().toAbsolutePath().normalize().toString(),
                "root_url", context.provider().rootUrl(),
                "v1_url", context.provider().v1Url(),
                "key_env", agent.keyEnv() == null ? "" : agent.keyEnv());
        Invocation.Builder b = Invocation.builder(context.executable());
        agent.args().forEach(a -> b.args(fill(a, values)));
        b.workingDir(workspace);
        agent.removeEnv().forEach(b::removeEnv);
        agent.env().forEach((k, v) -> b.env(k, fill(v, values)));
        if (agent.keyEnv() != null) {
            if (context.provider().secret() != null) {
                b.secretEnv(agent.keyEnv(), context.provider().secret().reveal());
            } else if (agent.noKey() != null) {
                b.env(agent.keyEnv(), agent.noKey());
            }
        }
        agent.files().forEach((name, content) -> b.file(fill(name, values), render(content, values)));
        return b.build();
    }

    private static String render(JsonNode content, Map<String, String> values) {
        if (content.isTextual()) {
            return fill(content.asText(), values);
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(filled(content, values)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not render a file of an ACP agent", e);
        }
    }

    /** A copy of the JSON with the placeholders filled in its strings (never in its structure). */
    private static JsonNode filled(JsonNode node, Map<String, String> values) {
        if (node.isTextual()) {
            return TextNode.valueOf(fill(node.asText(), values));
        }
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.set(fill(e.getKey(), values), filled(e.getValue(), values));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(n -> out.add(filled(n, values)));
            return out;
        }
        return node;
    }

    static String fill(String s, Map<String, String> values) {
        String out = s;
        for (Map.Entry<String, String> e : values.entrySet()) {
            out = out.replace("${" + e.getKey() + "}", e.getValue());
        }
        return out;
    }
}
