package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AiderOptionsTest {

    @Test
    void defaultsToWholeFileEditsWithAutoCommitsAndStreaming() {
        assertThat(AiderOptions.from(Map.of())).isEqualTo(new AiderOptions("whole", true, true));
    }

    @Test
    void readsEditFormatAutoCommitsAndStream() {
        AiderOptions o = AiderOptions.from(Map.of(
                AiderOptions.EDIT_FORMAT, " UDiff ", AiderOptions.AUTO_COMMITS, "false", AiderOptions.STREAM, "no"));

        assertThat(o).isEqualTo(new AiderOptions("udiff", false, false));
    }

    @Test
    void refusesAnEditFormatAiderIsNotRunWithNamingTheAllowedOnes() {
        assertThatThrownBy(() -> AiderOptions.from(Map.of(AiderOptions.EDIT_FORMAT, "architect")))
                .isInstanceOf(HarnessException.class)
                .hasMessageContaining("edit-format='architect'")
                .hasMessageContaining("[whole, diff, udiff]");
    }

    @Test
    void refusesABooleanOptionThatIsNotABoolean() {
        assertThatThrownBy(() -> AiderOptions.from(Map.of(AiderOptions.AUTO_COMMITS, "sometimes")))
                .isInstanceOf(HarnessException.class)
                .hasMessageContaining("auto-commits='sometimes'")
                .hasMessageContaining("true or false");
    }

    @Test
    void ignoresOptionsMeantForOtherHarnesses() {
        assertThat(AiderOptions.from(Map.of("max-budget-usd", "3"))).isEqualTo(AiderOptions.DEFAULTS);
    }
}
