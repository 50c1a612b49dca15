package dev.harness4j.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.ApiStyle;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One row of the ACP agents table ({@link AcpAgents}): how to launch an agent in ACP mode and point
 * it at the run's provider. Strings may hold the placeholders {@code ${model}}, {@code
 * ${workspace}}, {@code ${scratch}}, {@code ${root_url}}, {@code ${v1_url}} and {@code ${key_env}}.
 *
 * @param id the agent's id; its harness id is {@code acp:<id>}
 * @param name the agent's name, for messages
 * @param binary the executable, found on {@code PATH} or in the tools dir
 * @param args the arguments that start it in ACP mode
 * @param version the pinned version
 * @param install how to install that version
 * @param apiStyles the provider API styles the agent speaks (one is enough)
 * @param removeEnv inherited variables (or {@code PREFIX*} patterns) removed before the run's are set
 * @param env variables to set
 * @param keyEnv the variable that carries the provider's key (kept secret), or {@code null}
 * @param noKey the value {@code keyEnv} gets when the provider has no key, or {@code null} to leave it unset
 * @param files files written below the run's scratch dir: text, or a JSON value written as JSON
 * @param stopAfterRateLimits how many 429s in a row stop a metered run ({@link
 *     dev.harness4j.api.Harness#stopAfterRateLimits()}), 0 for never: for an agent that keeps
 *     retrying a rate limit longer than the endpoint's {@code Retry-After} asks
 * @param mode the session mode set after {@code session/new} ({@code session/set_mode}), or {@code
 *     null} for the agent's default: for an agent whose default mode cannot edit the workspace
 * @param stopAfterEndpointFailures how many failed model requests in a row stop a metered run ({@link
 *     dev.harness4j.api.Harness#stopAfterEndpointFailures()}), 0 for the runner's limit: for an agent
 *     that does not retry a dropped connection and then waits silently
 * @param followUp whether a follow-up run continues the agent's session with {@code session/load}
 *     ({@link dev.harness4j.api.Harness#supportsFollowUp()}): for an agent that offers {@code
 *     loadSession} and keeps its sessions in the run's scratch dir
 */
public record AcpAgent(String id, String name, String binary, List<String> args, String version, String install,
        Set<ApiStyle> apiStyles, List<String> removeEnv, Map<String, String> env, String keyEnv, String noKey,
        Map<String, JsonNode> files, int stopAfterRateLimits, String mode, int stopAfterEndpointFailures,
        boolean followUp) {

    /**
     * Checks the row and copies its collections.
     *
     * @throws IllegalArgumentException when the id, binary, version or install hint is blank or no API style is given
     */
    public AcpAgent {
        Objects.requireNonNull(id, "id");
        if (!id.matches("[a-z0-9][a-z0-9._-]{0,39}")) {
            throw new IllegalArgumentException("an ACP agent's id must be 1..40 lower-case letters, digits, '.', '_' "
                    + "or '-', starting with a letter or digit; was '" + id + "'");
        }
        for (Map.Entry<String, String> e : Map.of("name", String.valueOf(name), "binary", String.valueOf(binary),
                "version", String.valueOf(version), "install", String.valueOf(install)).entrySet()) {
            if (e.getValue().isBlank() || e.getValue().equals("null")) {
                throw new IllegalArgumentException("ACP agent '" + id + "' has no " + e.getKey() + "; give it in its row");
            }
        }
        args = List.copyOf(args);
        apiStyles = Set.copyOf(apiStyles);
        if (apiStyles.isEmpty()) {
            throw new IllegalArgumentException("ACP agent '" + id + "' names no api_styles; give the provider APIs it "
                    + "speaks, e.g. [\"OPENAI\"]");
        }
        removeEnv = List.copyOf(removeEnv);
        env = Map.copyOf(env);
        files = Map.copyOf(files);
        if (stopAfterRateLimits < 0) {
            throw new IllegalArgumentException("stop_after_rate_limits must be 0 (never) or more, was " + stopAfterRateLimits);
        }
        if (stopAfterEndpointFailures < 0) {
            throw new IllegalArgumentException("stop_after_endpoint_failures must be 0 (the runner's limit) or more, was "
                    + stopAfterEndpointFailures);
        }
        if (mode != null && mode.isBlank()) {
            throw new IllegalArgumentException("mode must be a session mode id the agent offers, or absent; was blank");
        }
    }

    /**
     * The harness id of this agent.
     *
     * @return {@code acp:<id>}
     */
    public String harnessId() {
        return AcpAgents.PREFIX + id;
    }
}
