package dev.harness4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** An adapter test's execution always has its instants, so what the process printed can be dated. */
class ExecutionBuilderTest {
    private static final HarnessContext CTX = HarnessContext.builder().prompt("p").workspace(Path.of("/w"))
            .scratchDir(Path.of("/s")).executable("cli").provider(new ResolvedProvider("p", EnumSet.of(ApiStyle.OPENAI),
                    URI.create("http://127.0.0.1:9"), null, AuthScheme.API_KEY, "m")).build();
    private static final Invocation INV = Invocation.builder("cli").workingDir(Path.of("/w")).build();

    @Test
    void theDefaultsAreAnExitZeroEndingNowAfterOneSecondThatChangedNothing() {
        Instant before = Instant.now();
        Execution ex = Execution.builder(CTX, INV).stdout(Path.of("/o")).stderr(Path.of("/e")).build();

        assertThat(ex.exitedCleanly()).isTrue();
        assertThat(ex.finishedAt()).isNotNull().isAfterOrEqualTo(before);
        assertThat(ex.startedAt()).isEqualTo(ex.finishedAt().minusSeconds(1));
        assertThat(ex.duration()).isEqualTo(Duration.ofSeconds(1));
        assertThat(ex.changes().files()).isEmpty();
    }

    @Test
    void givenInstantsAndAnEndBeforeTheStartIsRefused() {
        Instant t = Instant.parse("2026-12-02T10:00:00Z");
        Execution ex = Execution.builder(CTX, INV).exitCode(1).stdout(Path.of("/o")).stderr(Path.of("/e"))
                .times(t, t.plusSeconds(3)).build();
        assertThat(ex.duration()).isEqualTo(Duration.ofSeconds(3));
        assertThat(ex.exitCode()).isEqualTo(1);
        assertThatThrownBy(() -> Execution.builder(CTX, INV).stdout(Path.of("/o")).stderr(Path.of("/e"))
                .times(t, t.minusSeconds(1)).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Execution.builder(CTX, INV).build()).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("stdout");
    }
}
