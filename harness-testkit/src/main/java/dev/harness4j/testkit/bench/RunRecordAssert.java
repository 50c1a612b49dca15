package dev.harness4j.testkit.bench;

import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel;
import dev.harness4j.core.RunRecord;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;

/**
 * AssertJ assertions on a {@link RunRecord} and its result on disk, failing with the run's
 * outcome, reason and result dir so a failed bench test explains itself.
 *
 * <pre>{@code
 * RunRecordAssert.assertThat(record).isCompleted().changedExactly("hello.txt").diffContains("+hello")
 *         .hasMeasuredTokens().servedTheRequestedModel();
 * RunRecordAssert.assertAllSucceeded(BenchSummary.read(stateDir), 6);
 * }</pre>
 */
public final class RunRecordAssert extends AbstractAssert<RunRecordAssert, RunRecord> {

    private RunRecordAssert(RunRecord actual) {
        super(actual, RunRecordAssert.class);
    }

    public static RunRecordAssert assertThat(RunRecord actual) {
        return new RunRecordAssert(actual);
    }

    /** Every result in the summary succeeded ({@code completed} or {@code no-op}), none unreadable, {@code count} in all. */
    public static void assertAllSucceeded(BenchSummary summary, int count) {
        Assertions.assertThat(summary.problems()).as("unreadable results").isEmpty();
        Assertions.assertThat(summary.rows()).as("results").hasSize(count);
        for (ResultRow r : summary.rows()) {
            Assertions.assertThat(r.outcome()).as(r.dir() + " (" + r.reason() + ")").isIn("completed", "no-op");
        }
    }

    public RunRecordAssert hasOutcome(Outcome expected) {
        isNotNull();
        if (actual.result().outcome() != expected) {
            failWithMessage("expected run %s to end %s but it ended %s (stage %s): %s; result in %s", actual.runId(),
                    expected.wireName(), actual.result().outcome().wireName(), actual.stage(), actual.result().reason(),
                    actual.resultDir());
        }
        return this;
    }

    public RunRecordAssert isCompleted() {
        return hasOutcome(Outcome.COMPLETED);
    }

    /** The changed files are exactly these (any order). */
    public RunRecordAssert changedExactly(String... paths) {
        isNotNull();
        Assertions.assertThat(actual.changes()).as("changes of run %s", actual.runId()).isNotNull();
        Assertions.assertThat(actual.changes().files()).as("files changed by run %s", actual.runId())
                .containsExactlyInAnyOrder(paths);
        return this;
    }

    /** The captured {@code diff.patch} contains each text. */
    public RunRecordAssert diffContains(String... texts) {
        isNotNull();
        Assertions.assertThat(read("diff.patch")).as("diff.patch of run %s", actual.runId()).contains(texts);
        return this;
    }

    /** Input and output tokens were measured (never assumed). */
    public RunRecordAssert hasMeasuredTokens() {
        isNotNull();
        Assertions.assertThat(actual.result().tokens().input()).as("input tokens of run %s", actual.runId()).isNotNull();
        Assertions.assertThat(actual.result().tokens().output()).as("output tokens of run %s", actual.runId()).isNotNull();
        return this;
    }

    /** The served-model verdict is {@code match}. */
    public RunRecordAssert servedTheRequestedModel() {
        isNotNull();
        Assertions.assertThat(actual.result().servedModel().verdict()).as("served model of run %s: %s", actual.runId(),
                actual.result().servedModel().answered()).isEqualTo(ServedModel.Verdict.MATCH);
        return this;
    }

    /** The result directory holds {@code meta.json}, {@code diff.patch} and {@code transcript.log}. */
    public RunRecordAssert hasResultFiles() {
        isNotNull();
        for (String f : List.of("meta.json", "diff.patch", "transcript.log")) {
            Assertions.assertThat(actual.resultDir().resolve(f)).as("result file of run %s", actual.runId()).exists();
        }
        return this;
    }

    private String read(String file) {
        Path p = actual.resultDir().resolve(file);
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
