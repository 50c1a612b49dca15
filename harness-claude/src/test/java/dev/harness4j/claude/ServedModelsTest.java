package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ServedModel;
import dev.harness4j.api.ServedModel.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServedModelsTest {

    @Test
    void anAliasMatchesAnyIdOfItsFamily() {
        assertThat(ServedModels.verdict("haiku", List.of("claude-haiku-5-5")).verdict()).isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("sonnet", List.of("claude-3-7-sonnet-20250219")).verdict())
                .isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("opus", List.of("claude-opus-4-1", "claude-opus-4-1-20250805")).verdict())
                .isEqualTo(Verdict.MATCH);
    }

    @Test
    void anAliasAnsweredByAnotherFamilyIsAMismatch() {
        ServedModel v = ServedModels.verdict("haiku", List.of("claude-haiku-5-5", "claude-sonnet-4-5"));

        assertThat(v.verdict()).isEqualTo(Verdict.MISMATCH);
        assertThat(v.answered()).containsExactly("claude-haiku-5-5", "claude-sonnet-4-5");
    }

    @Test
    void aFamilyNameInsideAnotherWordIsNoMatch() {
        assertThat(ServedModels.verdict("opus", List.of("magnum-opusx-1")).verdict()).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void aFullIdMatchesOnlyItself() {
        assertThat(ServedModels.verdict("claude-sonnet-4-5", List.of("claude-sonnet-4-5")).verdict())
                .isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("claude-sonnet-4-5", List.of("claude-sonnet-4-5-20250929")).verdict())
                .isEqualTo(Verdict.MISMATCH);
        assertThat(ServedModels.verdict("scripted-a", List.of("scripted-b")).verdict()).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void customEndpointIdsAreComparedExactly() {
        assertThat(ServedModels.verdict("qwen3-coder", List.of("qwen3-coder")).verdict()).isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("qwen3-coder", List.of("Qwen3-Coder")).verdict()).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void ignoresAContextSuffixOnEitherSide() {
        assertThat(ServedModels.verdict("claude-sonnet-4-5[1m]", List.of("claude-sonnet-4-5")).verdict())
                .isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("sonnet[1m]", List.of("claude-sonnet-4-5[1m]")).verdict())
                .isEqualTo(Verdict.MATCH);
        assertThat(ServedModels.verdict("claude-opus-4-1", List.of("claude-opus-4-1[1m]")).verdict())
                .isEqualTo(Verdict.MATCH);
    }

    @Test
    void noAnsweringModelIsUnmeasuredNeverAMatch() {
        ServedModel v = ServedModels.verdict("haiku", List.of());

        assertThat(v.verdict()).isEqualTo(Verdict.UNMEASURED);
        assertThat(v.requested()).isEqualTo("haiku");
    }
}
