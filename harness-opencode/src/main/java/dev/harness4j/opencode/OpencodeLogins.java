package dev.harness4j.opencode;

import dev.harness4j.api.Execution;
import dev.harness4j.api.Login;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code opencode auth list} printed (1.18: a "Credentials" block ending {@code N
 * credentials}, then, when provider variables are set, an "Environment" block ending {@code N
 * environment variable(s)}). Pure.
 *
 * <ul>
 *   <li>stored credentials or provider variables listed: logged in ({@code auth_method} {@code
 *       credentials} or {@code environment}, the listed variable names as {@code key_source});
 *   <li>none listed: still logged in when the run's provider has an endpoint, since the run's own
 *       config file gives opencode that endpoint and its key ({@code auth_method} {@code config});
 *       not logged in when the provider is the CLI's own login;
 *   <li>a probe that was stopped, failed, or printed no count: unknown.
 * </ul>
 */
final class OpencodeLogins {
    static final int PROBE_OUTPUT_BYTES = 64 * 1024;
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final Pattern CREDENTIALS = Pattern.compile("(\\d+) credentials?\\b");
    private static final Pattern ENVIRONMENT = Pattern.compile("(\\d+) environment variables?\\b");
    /** A listed variable: a bullet, the provider's name, the variable. */
    private static final Pattern VARIABLE = Pattern.compile("\\b([A-Z][A-Z0-9_]*_(?:API_KEY|TOKEN|KEY))\\b");

    private OpencodeLogins() {}

    static Login interpret(Execution ex) {
        if (ex.termination().stopped() || ex.exitCode() == null || ex.exitCode() != 0) {
            return Login.unknown();
        }
        String out = ANSI.matcher(ex.stdoutTailText(PROBE_OUTPUT_BYTES)).replaceAll("");
        Matcher c = CREDENTIALS.matcher(out);
        if (!c.find()) {
            return Login.unknown();
        }
        int credentials = Integer.parseInt(c.group(1));
        Matcher e = ENVIRONMENT.matcher(out);
        int variables = e.find() ? Integer.parseInt(e.group(1)) : 0;
        if (credentials > 0) {
            return new Login(Login.Status.LOGGED_IN, "credentials", null, "auth.json", null, null);
        }
        if (variables > 0) {
            List<String> names = new ArrayList<>();
            Matcher v = VARIABLE.matcher(out);
            while (v.find()) {
                names.add(v.group(1));
            }
            return new Login(Login.Status.LOGGED_IN, "environment", null, names.isEmpty() ? null
                    : String.join(",", names), null, null);
        }
        if (ex.context().provider().usesCliLogin()) {
            return Login.notLoggedIn();
        }
        return new Login(Login.Status.LOGGED_IN, "config", ex.context().provider().name(),
                ex.context().provider().secret() != null ? OpencodeConfig.KEY_ENV : null, null, null);
    }
}
