package dev.harness4j.examples;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.notesagent.NotesAgentHarness;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.Clis;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealCli
class EmbeddingExampleTest {

    @Test
    void theReadmeSnippetIsTheCompilingCode() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent().getParent(); // examples/app -> repo root
        String source = Files.readString(Path.of("src/main/java/dev/harness4j/examples/EmbeddingExample.java"));
        String snippet = source.substring(source.indexOf("// README: embedding\n") + "// README: embedding\n".length(),
                source.indexOf("        // README: end"));
        String unindented = snippet.lines().map(l -> l.length() >= 8 ? l.substring(8) : l.strip())
                .collect(java.util.stream.Collectors.joining("\n"));

        assertThat(Files.readString(root.resolve("README.md"))).contains(unindented);
    }

    @Test
    void theThirdPartyAdapterRunsThroughTheSameRunner(@TempDir Path dir) throws Exception {
        Path repo = EmbeddingExample.sampleRepo(dir.resolve("repo"));

        RunRecord record = EmbeddingExample.runOnce(NotesAgentHarness.ID, dir.resolve("state"), repo);

        assertThat(record.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(record.changes().files()).containsExactly("NOTES.md");
        assertThat(Files.readString(record.resultDir().resolve("diff.patch")))
                .contains("+Create hello.txt with a greeting.");
        assertThat(record.result().tokens().isMeasured()).isFalse();
        assertThat(repo.resolve("NOTES.md")).doesNotExist();
    }

    @Test
    void claudeCodeHandsBackTheScriptedDiff(@TempDir Path dir) throws Exception {
        Clis.require(HarnessRegistry.fromServices().require("claude-code"));
        Path repo = EmbeddingExample.sampleRepo(dir.resolve("repo"));

        RunRecord record = EmbeddingExample.runOnce("claude-code", dir.resolve("state"), repo);

        assertThat(record.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(Files.readString(record.resultDir().resolve("diff.patch"))).contains("+hello from the agent");
        // the scenario's two turns: 120 + 40 in, 30 + 10 out
        assertThat(record.result().tokens().input()).isEqualTo(160L);
        assertThat(record.result().tokens().output()).isEqualTo(40L);
    }
}
