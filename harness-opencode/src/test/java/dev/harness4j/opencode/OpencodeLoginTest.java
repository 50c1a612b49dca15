package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Login;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** opencode's login probe is {@code opencode auth list} with the run's own dirs; what it printed (1.18.33) is read. */
class OpencodeLoginTest {
    @TempDir Path tmp;
    private final OpencodeHarness harness = new OpencodeHarness();

    /** Printed by opencode 1.18.33 with fresh XDG dirs and no provider variable (ANSI colours kept). */
    static final String NONE = "\u001B[0m\n┌  Credentials \u001B[90m/tmp/x/d/opencode/auth.json\n│\n└  0 credentials\n\n";
    /** The same with OPENAI_API_KEY set. */
    static final String ENV = NONE + "┌  Environment\n│\n●  OpenAI \u001B[90mOPENAI_API_KEY\n│\n└  1 environment variable\n\n";

    private HarnessContext context(ResolvedProvider p) {
        return HarnessContext.builder().runId("r1").prompt("p").provider(p).workspace(tmp.resolve("ws"))
                .scratchDir(tmp.resolve("scratch")).executable("opencode").build();
    }

    private static ResolvedProvider endpoint() {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                Secret.of("sk-x"), AuthScheme.API_KEY, "oc-model");
    }

    private Login login(ResolvedProvider p, String stdout, int exit) throws Exception {
        HarnessContext ctx = context(p);
        Path out = Files.writeString(tmp.resolve("out"), stdout);
        Invocation inv = Invocation.builder("opencode", "auth", "list").workingDir(tmp).build();
        return harness.interpretLogin(Execution.exited(ctx, inv, exit, out, tmp.resolve("err")));
    }

    @Test
    void theProbeIsAuthListWithTheRunsDirsAndKeyAndNoPrompt() {
        Invocation probe = harness.loginProbe(context(endpoint())).orElseThrow();
        assertThat(probe.command()).containsExactly("opencode", "auth", "list");
        assertThat(probe.environment()).containsKeys("OPENCODE_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME");
        assertThat(probe.environment().get("XDG_DATA_HOME")).startsWith(tmp.resolve("scratch").toString());
        assertThat(probe.secretValues()).contains("sk-x");
        assertThat(String.join(" ", probe.command())).doesNotContain("sk-x");
        assertThat(harness.loginCommand()).contains("opencode auth login");
    }

    @Test
    void listedCredentialsOrVariablesAreLoggedInAndAnEndpointOfTheRunsConfigIsToo() throws Exception {
        Login env = login(endpoint(), ENV, 0);
        assertThat(env.status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(env.authMethod()).isEqualTo("environment");
        assertThat(env.keySource()).isEqualTo("OPENAI_API_KEY");
        Login config = login(endpoint(), NONE, 0);
        assertThat(config.status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(config.authMethod()).isEqualTo("config");
        assertThat(login(endpoint(), NONE.replace("0 credentials", "2 credentials"), 0).authMethod())
                .isEqualTo("credentials");
    }

    @Test
    void nothingListedForTheClisOwnLoginIsLoggedOutAndGarbageOrAFailureIsUnknown() throws Exception {
        assertThat(login(ResolvedProvider.cliLogin("own", "m"), NONE, 0).status()).isEqualTo(Login.Status.NOT_LOGGED_IN);
        assertThat(login(endpoint(), "something else\n", 0).status()).isEqualTo(Login.Status.UNKNOWN);
        assertThat(login(endpoint(), NONE, 1).status()).isEqualTo(Login.Status.UNKNOWN);
        HarnessContext ctx = context(endpoint());
        Path out = Files.writeString(tmp.resolve("out"), NONE);
        Execution stopped = Execution.exited(ctx, Invocation.builder("opencode").workingDir(tmp).build(), 0, out, tmp.resolve("err"))
                .withTermination(new Termination(Termination.Kind.MAX_RUNTIME, "20 s"));
        assertThat(harness.interpretLogin(stopped).status()).isEqualTo(Login.Status.UNKNOWN);
    }

    @Test
    void aCliLoginProviderIsRefusedByPrepareSayingWhy() {
        assertThatThrownBy(() -> harness.prepare(context(ResolvedProvider.cliLogin("own", "m"))))
                .isInstanceOf(HarnessException.class).hasMessageContaining("the CLI's own login")
                .hasMessageContaining("base_url");
    }
}
