package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BenchArgsTest {
    @Test
    void listsMayBeRepeatedOrCommaSeparatedAndValuesMayFollowAnEqualsSign() {
        BenchArgs a = BenchArgs.parse("--harness", "claude-code,aider", "--harness=opencode", "--model", "m1, m2",
                "--provider", "anthropic", "--prompt", "Add a README", "--repo", "/src/app", "--branch", "develop",
                "--force", "--concurrency", "2", "--state-dir", "/tmp/s", "--push");
        assertThat(a.harnesses()).containsExactly("claude-code", "aider", "opencode");
        assertThat(a.models()).containsExactly("m1", "m2");
        assertThat(a.providers()).containsExactly("anthropic");
        assertThat(a.prompt()).isEqualTo("Add a README");
        assertThat(a.repo()).isEqualTo(Path.of("/src/app"));
        assertThat(a.branch()).isEqualTo("develop");
        assertThat(a.force()).isTrue();
        assertThat(a.push()).isTrue();
        assertThat(a.concurrency()).isEqualTo(2);
        assertThat(a.embedded()).isFalse();
        assertThat(BenchArgs.parse().embedded()).isTrue();
    }

    @Test
    void aBadArgumentIsNamedWithTheUsage() {
        assertThatThrownBy(() -> BenchArgs.parse("--harnes", "x")).hasMessageContaining("unknown argument '--harnes'")
                .hasMessageContaining("usage: bench");
        assertThatThrownBy(() -> BenchArgs.parse("--concurrency", "two")).hasMessageContaining("takes a number");
        assertThatThrownBy(() -> BenchArgs.parse("--model")).hasMessageContaining("--model needs a value");
        assertThatThrownBy(() -> BenchArgs.parse("--prompt", "a", "--prompt-file", "f")).hasMessageContaining("not both");
        assertThatThrownBy(() -> BenchArgs.parse("--suite", "s", "--prompt", "a")).hasMessageContaining("not both");
        assertThatThrownBy(() -> BenchArgs.parse("--trials", "0")).hasMessageContaining("--trials must be >= 1");
        BenchArgs suite = BenchArgs.parse("--suite", "suites/basics", "--trials", "3");
        assertThat(suite.suite()).isEqualTo(java.nio.file.Path.of("suites/basics"));
        assertThat(suite.trials()).isEqualTo(3);
        assertThat(BenchArgs.parse().trials()).as("the caller's default").isZero();
        assertThat(BenchArgs.parse().concurrency()).isEqualTo(2);
    }

    @Test
    void withStateDirChangesOnlyTheStateDir() {
        BenchArgs a = BenchArgs.parse("--suite", "s", "--trials", "3", "--harness", "nop");
        BenchArgs b = a.withStateDir(java.nio.file.Path.of("/tmp/state"));
        assertThat(b.stateDir()).isEqualTo(java.nio.file.Path.of("/tmp/state"));
        assertThat(b.withStateDir(a.stateDir() == null ? java.nio.file.Path.of("x") : a.stateDir()).suite()).isEqualTo(a.suite());
        assertThat(b.harnesses()).isEqualTo(a.harnesses());
        assertThat(b.trials()).isEqualTo(3);
        assertThat(BenchArgs.USAGE).contains("--serve");
    }
}
