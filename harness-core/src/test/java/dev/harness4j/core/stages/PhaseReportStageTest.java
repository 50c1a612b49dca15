package dev.harness4j.core.stages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.PhaseReport;
import dev.harness4j.core.PhaseReports;
import dev.harness4j.core.internal.run.ChainFixture;
import dev.harness4j.core.internal.run.HarnessProcessStage;
import dev.harness4j.core.internal.run.WorkspaceStage;
import dev.harness4j.core.pipeline.RunKeys;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The phase-report stage around the real harness stage running a shell script that reports. */
class PhaseReportStageTest {
    private static final String REPORTS = "mkdir -p .harness4j && printf '%s' '{\"completed\": true, \"committed\": false, "
            + "\"commit_message\": null, \"summary\": \"wrote a\", \"next_phase_notes\": null, \"blockers\": []}' "
            + "> .harness4j/report.json && echo a > a.txt";

    @TempDir Path tmp;
    private ChainFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new ChainFixture(tmp);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    void theContractIsAppendedAndTheAgentsReportIsReadAndLeftOutOfTheCapturedChanges() throws Exception {
        var ran = fixture.run(ChainFixture.spec().option("script", REPORTS), List.of(new WorkspaceStage(),
                PhaseReportStage.of(PhaseReports.DEFAULT), new HarnessProcessStage()));

        assertThat(ran.store().require(RunKeys.PROMPT)).isEqualTo("do it" + PhaseReports.CONTRACT);
        PhaseReport report = ran.outcome().result().phaseReport();
        assertThat(report.source()).isEqualTo(PhaseReport.Source.SELF_REPORT);
        assertThat(report.summary()).isEqualTo("wrote a");
        assertThat(ran.outcome().changes().files()).contains("a.txt").noneMatch(f -> f.contains("report.json"));
    }

    @Test
    void gitOnlyLeavesThePromptAsGivenAndDerivesTheReportFromGit() throws Exception {
        var ran = fixture.run(ChainFixture.spec().option("script", "echo a > a.txt"), List.of(new WorkspaceStage(),
                PhaseReportStage.of(PhaseReports.GIT_ONLY), new HarnessProcessStage()));

        assertThat(ran.store().require(RunKeys.PROMPT)).isEqualTo("do it");
        assertThat(ran.outcome().result().phaseReport().source()).isEqualTo(PhaseReport.Source.GIT_DERIVED);
    }
}
