package dev.harness4j.testkit.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.internal.util.Json;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys never reach a file the provider code writes, a log line, a JSON form or a message. The
 * log lines are captured from slf4j-simple, which writes to whatever {@code System.err} is at
 * the time (provider loggers are at debug in this module's test simplelogger.properties).
 */
class NoKeyLeaksTest {
    static final String KEY = "sk-leakcheck-right-5b2e91";
    static final String WRONG = "sk-leakcheck-wrong-0d4c17";
    static final String ADMIN = "sk-leakcheck-admin-a7f310";

    @TempDir
    Path stateDir;

    @Test
    void noKeyInTheFilesLogsJsonOrMessagesOfAFullProviderSession() throws Exception {
        List<String> texts = new ArrayList<>();
        String logs;
        PrintStream realErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            server.script("scripted-a", Scenario.builder().say("a").build());
            server.requireKey(ADMIN); // provider "local" has a gateway: its catalogue and health send the admin key
            ProvidersFile.write(ProvidersFile.in(stateDir), List.of(
                    ProviderConfig.builder("local").apiStyles(ApiStyle.ANTHROPIC, ApiStyle.OPENAI)
                            .baseUrl(server.baseUrl()).key("LOCAL_KEY", AuthScheme.API_KEY)
                            .models("gone").defaultModel("gone")
                            .gateway(ProviderConfig.Gateway.litellm("ADMIN_KEY")).build(),
                    ProviderConfig.builder("wrong").apiStyles(ApiStyle.OPENAI).baseUrl(server.baseUrl())
                            .key("WRONG_KEY", AuthScheme.BEARER).defaultModel("scripted-a").build()));
            Providers providers = Providers.builder().stateDir(stateDir)
                    .environment(Map.of("LOCAL_KEY", KEY, "WRONG_KEY", WRONG, "ADMIN_KEY", ADMIN)).build();

            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                Providers refreshed = providers.refresh("local").providers();          // info + warn (default vanished)
                ResolvedProvider p = refreshed.resolve("local", "scripted-a").orElseThrow();  // debug
                texts.add(Json.mapper().writeValueAsString(p));
                texts.add(p.toString());
                texts.add(String.valueOf(p.secret()));
                HealthCheck ok = refreshed.health("local");
                HealthCheck bad = refreshed.health("wrong");
                assertThat(ok.healthy()).isTrue();
                assertThat(bad.status()).isEqualTo(401);
                texts.add(ok.toString());
                texts.add(bad.toString());
                texts.add(String.valueOf(catchThrowable(() -> refreshed.refresh("wrong"))));
                texts.add(String.valueOf(refreshed.adminKey("local")));
                texts.add(Json.mapper().writeValueAsString(refreshed.configs()));
            } finally {
                System.setErr(realErr);
            }
        }
        logs = captured.toString(StandardCharsets.UTF_8);
        realErr.print(logs);

        assertThat(logs).as("the session was logged").contains("catalogue refreshed").contains("default_model gone")
                .contains("resolved model scripted-a");
        assertThat(texts).isNotEmpty().allSatisfy(t -> assertThat(t).doesNotContain(KEY, WRONG, ADMIN));
        assertThat(texts.get(0)).contains("\"secret\":\"***\"");
        assertThat(logs).doesNotContain(KEY, WRONG, ADMIN);
        List<Path> written = filesUnder(stateDir);
        assertThat(written).contains(ProvidersFile.in(stateDir));
        for (Path f : written) {
            assertThat(Files.readString(f)).as(f.toString()).doesNotContain(KEY, WRONG, ADMIN)
                    .doesNotContain("sk-leakcheck");
        }
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
