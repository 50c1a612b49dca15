package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Login;
import dev.harness4j.api.Termination;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Over {@code claude auth status --json} output captured from the real binary. */
class ClaudeLoginTest {
    @TempDir Path dir;
    private final ClaudeCodeHarness harness = new ClaudeCodeHarness();

    @Test
    void anApiKeyInTheEnvironmentIsLoggedInWithItsSource() {
        Login login = harness.interpretLogin(Executions.in(dir)
                .stdout(Executions.resource("captured/auth-status-api-key.json")).exit(0).build());

        assertThat(login).isEqualTo(new Login(Login.Status.LOGGED_IN, "api_key", "firstParty", "ANTHROPIC_API_KEY",
                null, null));
    }

    @Test
    void anAuthTokenIsLoggedInByOauthToken() {
        Login login = harness.interpretLogin(Executions.in(dir)
                .stdout(Executions.resource("captured/auth-status-auth-token.json")).exit(0).build());

        assertThat(login.status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(login.authMethod()).isEqualTo("oauth_token");
    }

    @Test
    void exitOneIsNotLoggedIn() {
        Login login = harness.interpretLogin(Executions.in(dir)
                .stdout(Executions.resource("captured/auth-status-logged-out.json")).exit(1).build());

        assertThat(login.status()).isEqualTo(Login.Status.NOT_LOGGED_IN);
        assertThat(login.authMethod()).isEqualTo("none");
    }

    @Test
    void exitOneWithoutJsonIsStillNotLoggedIn() {
        Login login = harness.interpretLogin(Executions.in(dir).stderr("boom").exit(1).build());

        assertThat(login).isEqualTo(Login.notLoggedIn());
    }

    @Test
    void aProbeThatWasStoppedOrPrintedNothingIsUnknown() {
        assertThat(harness.interpretLogin(Executions.in(dir).exit(null)
                .termination(new Termination(Termination.Kind.MAX_RUNTIME, "30 s")).build()))
                .isEqualTo(Login.unknown());
        assertThat(harness.interpretLogin(Executions.in(dir).exit(0).build())).isEqualTo(Login.unknown());
    }
}
