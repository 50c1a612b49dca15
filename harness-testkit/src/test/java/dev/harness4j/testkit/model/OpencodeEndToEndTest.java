package dev.harness4j.testkit.model;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real installed {@code opencode} against the scripted server's Chat Completions, in a temp git repository. */
@RealCli
class OpencodeEndToEndTest {
    private static final String MODEL = "scripted-oc";
    private static final String KEY = "sk-test-opencode";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** opencode's XDG directories, shared by the tests of this class: a warm data dir starts faster. */
    @TempDir
    static Path xdg;

    private ScriptedModelServer server;
    private Path opencode;

    @BeforeEach
    void setUp() {
        opencode = CliProcess.require("opencode", "opencode");
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private CliProcess.Result runOpencode(Path repo, String prompt) throws Exception {
        Path config = tmp.resolve("opencode.json");
        Files.writeString(config, "{\"$schema\":\"https://opencode.ai/config.json\",\"autoupdate\":false,"
                + "\"share\":\"disabled\",\"permission\":{\"edit\":\"allow\",\"bash\":\"allow\"},"
                + "\"provider\":{\"scripted\":{\"npm\":\"@ai-sdk/openai-compatible\",\"name\":\"scripted\","
                + "\"options\":{\"baseURL\":\"" + server.baseUrl() + "/v1\",\"apiKey\":\"" + KEY + "\"},"
                + "\"models\":{\"" + MODEL + "\":{\"name\":\"" + MODEL + "\"}}}}}");
        Map<String, String> env = Map.of(
                "OPENCODE_CONFIG", config.toString(),
                "OPENCODE_DISABLE_MODELS_FETCH", "1",
                "XDG_CONFIG_HOME", Files.createDirectories(xdg.resolve("config")).toString(),
                "XDG_DATA_HOME", Files.createDirectories(xdg.resolve("data")).toString(),
                "XDG_CACHE_HOME", Files.createDirectories(xdg.resolve("cache")).toString(),
                "XDG_STATE_HOME", Files.createDirectories(xdg.resolve("state")).toString(),
                "HOME", Files.createDirectories(tmp.resolve("home")).toString());
        return CliProcess.run(List.of(opencode.toString(), "run", "--format", "json", "--model", "scripted/" + MODEL,
                "--dir", repo.toString(), "--dangerously-skip-permissions", prompt), repo, env, null, tmp);
    }

    private static List<JsonNode> events(CliProcess.Result r, String type) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : r.stdout().lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode n = JSON.readTree(line);
            if (type.equals(n.path("type").asText())) {
                out.add(n);
            }
        }
        return out;
    }

    @Test
    void writeFileScenarioMakesOpencodeWriteTheFileAndReportTheScriptedUsagePerStep() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder()
                .writeFile("src/hello.txt", "hello from the script\nsecond line\n").usage(100, 20, 30, 0)
                .say("Wrote it.").usage(110, 5, 0, 0)
                .build());

        CliProcess.Result r = runOpencode(repo, "Create src/hello.txt");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(repo.resolve("src/hello.txt")).hasContent("hello from the script\nsecond line\n");
        List<JsonNode> steps = events(r, "step_finish");
        assertThat(steps).as(r.both()).hasSize(2);
        JsonNode first = steps.get(0).path("part").path("tokens");
        assertThat(first.path("input").asLong()).as(first.toString()).isEqualTo(100);
        assertThat(first.path("output").asLong()).isEqualTo(20);
        assertThat(first.path("cache").path("read").asLong()).isEqualTo(30);
        JsonNode second = steps.get(1).path("part").path("tokens");
        assertThat(second.path("input").asLong()).isEqualTo(110);
        assertThat(second.path("output").asLong()).isEqualTo(5);
        assertThat(server.requests(RecordedRequest.Kind.SIDE_REQUEST)).as("title request").isNotEmpty();
        assertThat(server.requests(RecordedRequest.Kind.TURN)).hasSize(2).allSatisfy(t -> {
            assertThat(t.tools()).contains("write", "bash");
            assertThat(t.authHeaders()).containsExactly("authorization");
        });
    }

    @Test
    void shellScenarioMakesOpencodeRunTheCommand() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().shell("printf 'shelled %s\\n' ok > shell.txt").say("Ran it.").build());

        CliProcess.Result r = runOpencode(repo, "Run the command");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(repo.resolve("shell.txt")).hasContent("shelled ok\n");
        assertThat(events(r, "tool_use")).as(r.both()).anySatisfy(e -> assertThat(e.path("part").path("tool").asText()).isEqualTo("bash"));
    }

    @Test
    void contextLengthFailureMakesOpencodeReportAnError() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().failContextLength().build());

        CliProcess.Result r = runOpencode(repo, "Do something big");

        assertThat(events(r, "error")).as(r.both()).isNotEmpty();
        assertThat(r.exitCode()).as(r.both()).isNotZero();
    }
}
