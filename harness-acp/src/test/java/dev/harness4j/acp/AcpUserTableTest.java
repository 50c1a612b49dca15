package dev.harness4j.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's ACP agents table, {@code <stateDir>/config/acp-agents.json}: read, and refused clearly when malformed. */
class AcpUserTableTest {
    @TempDir Path state;

    @Test
    void noFileIsNoAgents() {
        assertThat(AcpAgents.user(state)).isEmpty();
    }

    @Test
    void aRowBecomesAnAcpHarness() throws Exception {
        write("{\"agents\": {\"mine\": {\"name\": \"Mine\", \"binary\": \"my-agent\", \"args\": [\"--acp\"],"
                + " \"version\": \"1.0\", \"install\": \"npm i -g my-agent\", \"api_styles\": [\"openai\"]}}}");

        AcpAgent mine = AcpAgents.user(state).get("mine");

        assertThat(new AcpHarness(mine).id()).isEqualTo("acp:mine");
        assertThat(mine.args()).containsExactly("--acp");
    }

    @Test
    void aMalformedRowNamesTheFileTheRowAndTheField() throws Exception {
        write("{\"agents\": {\"mine\": {\"name\": \"Mine\", \"binary\": \"my-agent\", \"args\": \"--acp\","
                + " \"version\": \"1.0\", \"install\": \"npm i -g my-agent\", \"api_styles\": [\"openai\"]}}}");

        assertThatThrownBy(() -> AcpAgents.user(state)).isInstanceOf(HarnessException.class)
                .hasMessageContaining(state.resolve(AcpAgents.USER_RELATIVE_PATH).toString())
                .hasMessageContaining("'mine'").hasMessageContaining("args must be an array of strings");
    }

    @Test
    void anUnknownApiStyleIsNamed() throws Exception {
        write("{\"agents\": {\"mine\": {\"name\": \"Mine\", \"binary\": \"b\", \"version\": \"1\", \"install\": \"i\","
                + " \"api_styles\": [\"klingon\"]}}}");

        assertThatThrownBy(() -> AcpAgents.user(state)).hasMessageContaining("api_styles names 'klingon'");
    }

    @Test
    void invalidJsonNamesTheFileAndLine() throws Exception {
        write("{\"agents\": {\n  \"mine\": {,}}}");

        assertThatThrownBy(() -> AcpAgents.user(state)).isInstanceOf(HarnessException.class)
                .hasMessageContaining(state.resolve(AcpAgents.USER_RELATIVE_PATH).toString())
                .hasMessageContaining("line 2");
    }

    private void write(String json) throws Exception {
        Path f = state.resolve(AcpAgents.USER_RELATIVE_PATH);
        Files.createDirectories(f.getParent());
        Files.writeString(f, json);
    }

    @Test
    void aRunnersDefaultRegistryHasTheUsersAgentsAndSaysWhyWhenTheTableIsBroken() throws Exception {
        write("{\"agents\": {\"mine\": {\"name\": \"Mine\", \"binary\": \"my-agent\", \"args\": [\"--acp\"],"
                + " \"version\": \"1.0\", \"install\": \"npm i -g my-agent\", \"api_styles\": [\"openai\"]},"
                + " \"gemini\": {\"name\": \"Again\", \"binary\": \"gemini\", \"args\": [\"--acp\"],"
                + " \"version\": \"1.0\", \"install\": \"npm i -g x\", \"api_styles\": [\"gemini\"]}}}");
        try (dev.harness4j.core.HarnessRunner runner = dev.harness4j.core.HarnessRunner.builder().stateDir(state).build()) {
            assertThat(runner.registry().require("acp:mine")).isInstanceOf(AcpHarness.class);
            assertThat(runner.registry().require("acp:gemini")).as("the bundled one stays").isInstanceOf(AcpGeminiHarness.class);
            assertThat(runner.registry().loadFailures()).anySatisfy(f -> assertThat(f)
                    .contains("offers 'acp:gemini', which an adapter has already"));
        }
        assertThat(dev.harness4j.core.HarnessRegistry.fromServices().find("acp:mine")).as("no state dir, no user table")
                .isEmpty();

        write("{\"agents\": {\"mine\": {\"name\": \"Mine\", \"binary\": \"my-agent\", \"args\": \"--acp\"}}}");
        dev.harness4j.core.HarnessRegistry broken = dev.harness4j.core.HarnessRegistry.fromServices(state);
        assertThat(broken.find("acp:gemini")).as("the bundled agents are unaffected").isPresent();
        assertThatThrownBy(() -> broken.require("acp:mine")).isInstanceOf(dev.harness4j.api.UnknownHarnessException.class)
                .hasMessageContaining("unknown harness 'acp:mine'")
                .hasMessageContaining(state.resolve(AcpAgents.USER_RELATIVE_PATH).toString())
                .hasMessageContaining("args must be an array of strings");
    }
}
