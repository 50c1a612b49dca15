package dev.harness4j.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Login;

/**
 * Reads what {@code claude auth status --json} printed. Exit 0 with {@code loggedIn: true} is
 * logged in; exit 1 (or {@code loggedIn: false}) is not logged in; a probe that was stopped, never
 * started or printed no JSON on another exit is unknown. Pure.
 */
final class ClaudeLogins {
    /** How much of the probe's stdout is read: 64 KiB (it prints a handful of fields). */
    static final int PROBE_OUTPUT_BYTES = 64 * 1024;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private ClaudeLogins() {}

    static Login interpret(Execution ex) {
        if (ex.termination().stopped() || ex.exitCode() == null) {
            return Login.unknown();
        }
        JsonNode n = parse(ex.stdoutTailText(PROBE_OUTPUT_BYTES));
        int exit = ex.exitCode();
        if (n == null) {
            return exit == 1 ? Login.notLoggedIn() : Login.unknown();
        }
        Login.Status status;
        if (exit == 1 || !n.path("loggedIn").asBoolean(false)) {
            status = exit == 0 || exit == 1 ? Login.Status.NOT_LOGGED_IN : Login.Status.UNKNOWN;
        } else {
            status = exit == 0 ? Login.Status.LOGGED_IN : Login.Status.UNKNOWN;
        }
        return new Login(status, text(n, "authMethod"), text(n, "apiProvider"), text(n, "apiKeySource"),
                account(n), text(n, "subscriptionType"));
    }

    private static JsonNode parse(String out) {
        int start = out.indexOf('{');
        int end = out.lastIndexOf('}');
        if (start < 0 || end < start) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(out.substring(start, end + 1));
            return n != null && n.isObject() ? n : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static String account(JsonNode n) {
        String email = text(n, "email");
        String org = text(n, "orgName");
        if (email != null && org != null) {
            return email + " (" + org + ")";
        }
        return email != null ? email : org;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText();
    }
}
