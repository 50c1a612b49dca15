package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The phase report settings: bad values refused with the rule, the contract appended once. */
class PhaseReportsTest {
    @Test
    void badSummarizerSettingsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> PhaseReports.DEFAULT.withSummarizer(" ", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summarizerProvider must not be blank");
        assertThatThrownBy(() -> PhaseReports.DEFAULT.withSummarizer("anthropic", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summarizerModel");
        assertThatThrownBy(() -> new PhaseReports(true, null, "m", PhaseReports.DEFAULT_SUMMARIZER_TIMEOUT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a summarizerProvider");
        assertThatThrownBy(() -> PhaseReports.DEFAULT.withSummarizerTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summarizerTimeout must be positive");
        assertThatThrownBy(() -> PhaseReports.DEFAULT.withSummarizer(null, "m")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theDefaultsAreSelfReportWithoutSummarizerAndGitOnlyIsNeither() {
        assertThat(PhaseReports.DEFAULT.selfReport()).isTrue();
        assertThat(PhaseReports.DEFAULT.hasSummarizer()).isFalse();
        assertThat(PhaseReports.GIT_ONLY.selfReport()).isFalse();
        PhaseReports s = PhaseReports.GIT_ONLY.withSummarizer("p", null);
        assertThat(s.hasSummarizer()).isTrue();
        assertThat(s.withoutSummarizer().hasSummarizer()).isFalse();
    }

    @Test
    void theContractIsAppendedOnceAndCanBeTakenOff() {
        String once = PhaseReports.appendContract("Add a README");
        assertThat(once).startsWith("Add a README").contains(PhaseReports.REPORT_FILE).endsWith(PhaseReports.CONTRACT);
        assertThat(PhaseReports.appendContract(once)).isEqualTo(once);
        assertThat(PhaseReports.withoutContract(once)).isEqualTo("Add a README");
        assertThat(PhaseReports.withoutContract("plain")).isEqualTo("plain");
        String framed = PhaseReports.appendContract(AutonomyPreamble.frame("Add a README"));
        assertThat(AutonomyPreamble.isFramed(framed)).isTrue();
        assertThat(AutonomyPreamble.frame(framed)).isEqualTo(framed);
    }
}
