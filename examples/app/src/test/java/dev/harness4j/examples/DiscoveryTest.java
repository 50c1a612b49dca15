package dev.harness4j.examples;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.notesagent.NotesAgentHarness;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.Installation;
import dev.harness4j.core.Installations;
import dev.harness4j.testkit.Clis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

@RealCli
class DiscoveryTest {

    private final HarnessRegistry registry = HarnessRegistry.fromServices();

    @Test
    void discoversTheBundledAdaptersAndAThirdPartyOne() {
        assertThat(registry.ids()).containsExactly("acp:claude-code", "acp:codex", "acp:gemini", "acp:kilo",
                "acp:mistral-vibe", "acp:opencode", "acp:qwen-code", "aider", "claude-code", "cline", "codex", "continue",
                "copilot", "gemini", "mini-swe-agent", "nop", NotesAgentHarness.ID, "opencode", "oracle", "qwen-code");
        // nop, oracle: harness-bench's references; acp:*: harness-acp's table
        assertThat(registry.require("oracle").needsProvider()).isFalse();
        assertThat(registry.loadFailures()).isEmpty();
        assertThat(registry.require("claude-code").completionMode()).isEqualTo(CompletionMode.STRUCTURED);
        assertThat(registry.require("opencode").completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(registry.require(NotesAgentHarness.ID)).isInstanceOf(NotesAgentHarness.class);
        assertThat(registry.harnesses()).as("each declares the harness-api contract it was built against")
                .allSatisfy(h -> assertThat(h.apiVersion()).isEqualTo(dev.harness4j.api.Harness.API_VERSION));
    }

    @ParameterizedTest
    @CsvSource({"claude-code, 2.1.197", "opencode, 1.18.33", "aider, 0.86.2", "codex, 0.169.0", "gemini, 0.61.0",
        "mini-swe-agent, 2.4.6", "qwen-code, 0.24.4", "acp:gemini, 0.61.0", "acp:opencode, 1.18.33",
        "acp:qwen-code, 0.24.4", "acp:claude-code, 0.101.0", "acp:codex, 0.16.0", "acp:kilo, 7.7.7",
        "acp:mistral-vibe, 3.0.2", "copilot, 1.0.102", "cline, 3.0.65", "continue, 1.5.47"})
    void probesTheVersionOfEachRealInstalledCli(String id, String pinned) {
        Clis.require(registry.require(id));

        Installation installation = Installations.defaults().check(registry.require(id));

        assertThat(installation.installed()).isTrue();
        assertThat(installation.version()).contains(pinned);
    }
}
