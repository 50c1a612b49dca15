package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.Cost;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.testkit.Clis;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsageLinesTest {

    private static UsageLines read(String... lines) {
        UsageLines u = new UsageLines();
        for (String l : lines) {
            u.accept(l);
        }
        return u;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "0, 0", "7, 7", "340, 340", "999, 999",            // below 1000: as is
            "1.0k, 1000", "1.2k, 1200", "9.9k, 9900", "10.0k, 10000",  // below 10000: one decimal
            "10k, 10000", "12k, 12000", "14k, 14000", "1235k, 1235000"  // above: rounded thousands
    })
    void parsesEveryFormAiderPrintsACountIn(String printed, long expected) {
        assertThat(UsageLines.parseCount(printed)).isEqualTo(expected);
    }

    @Test
    void refusesWhatIsNotACount() {
        assertThatThrownBy(() -> UsageLines.parseCount("lots")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> UsageLines.parseCount("")).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void readsSentAndReceivedWithNoCacheFiguresAndNoCost() {
        UsageLines u = read("Tokens: 770 sent, 10 received.");

        assertThat(u.tokens(false)).isEqualTo(new TokenUsage(770L, 10L, null, null, TokenUsage.Source.ADAPTER));
        assertThat(u.cost()).isEmpty();
    }

    @Test
    void readsCacheWriteAndHitAndTakesThemOutOfTheInputFigure() {
        UsageLines u = read("Tokens: 14k sent, 2.0k cache write, 1.5k cache hit, 1.2k received.",
                "Cost: $0.0022 message, $0.0022 session.");

        assertThat(u.tokens(false)).isEqualTo(new TokenUsage(10_500L, 1200L, 1500L, 2000L, TokenUsage.Source.ADAPTER));
        assertThat(u.cost()).contains(new Cost(new BigDecimal("0.0022"), Cost.Source.CLI_ESTIMATE, UsageLines.COST_NOTE));
    }

    @Test
    void readsACacheHitAloneAndACostOnTheSameLine() {
        UsageLines u = read("Tokens: 3.4k sent, 1.0k cache hit, 55 received. Cost: $0.01 message, $0.01 session.");

        assertThat(u.tokens(false)).isEqualTo(new TokenUsage(2400L, 55L, 1000L, null, TokenUsage.Source.ADAPTER));
        assertThat(u.cost()).map(Cost::usd).contains(new BigDecimal("0.01"));
    }

    @Test
    void sumsTheLinesOfEveryMessageAndTakesTheLastSessionCost() {
        UsageLines u = read(
                "Tokens: 2.5k sent, 300 received. Cost: $0.0012 message, $0.0012 session.",
                "The LLM did not conform to the edit format.",
                "Tokens: 3.1k sent, 1.0k cache write, 120 received.",
                "Cost: $0.0020 message, $0.0032 session.");

        assertThat(u.tokenLines()).isEqualTo(2);
        assertThat(u.tokens(false)).isEqualTo(new TokenUsage(4600L, 420L, null, 1000L, TokenUsage.Source.ADAPTER));
        assertThat(u.cost()).map(Cost::usd).contains(new BigDecimal("0.0032"));
    }

    @Test
    void readsAZeroCostAsAiderPrintsIt() {
        assertThat(read("Tokens: 5 sent, 1 received. Cost: $0.00 message, $0.00 session.").cost())
                .map(Cost::usd).contains(new BigDecimal("0.00"));
    }

    @Test
    void leavesTokensAndCostUnmeasuredWhenAiderPrintedNoUsage() {
        UsageLines u = read("Aider v0.86.2", "Tokens: plenty of them, said the model", "Cost: nothing");

        assertThat(u.tokens(false)).isEqualTo(TokenUsage.unmeasured());
        assertThat(u.cost()).isEmpty();
    }

    /** Asks the installed aider's own {@code format_tokens} how it prints counts across every branch. */
    @Test
    void parsesWhatTheInstalledAidersFormatTokensPrintsForEveryBranch() throws Exception {
        Path python = Clis.require(new AiderHarness()).toRealPath().resolveSibling("python3");
        assertThat(python).as("aider's virtualenv python").satisfies(p -> assertThat(Files.isExecutable(p)).isTrue());
        long[] counts = {0, 1, 999, 1000, 1049, 1050, 4321, 9949, 9950, 9999, 10000, 10499, 12500, 13500, 999_499, 1_234_567};
        List<String> cmd = new ArrayList<>(List.of(python.toString(), "-c",
                "import sys\nfrom aider.utils import format_tokens\nfor n in sys.argv[1:]: print(format_tokens(int(n)))"));
        for (long n : counts) {
            cmd.add(Long.toString(n));
        }

        List<String> printed = GitRepos.run(cmd, Map.of(), Path.of(".").toAbsolutePath()).lines().toList();

        assertThat(printed).hasSize(counts.length);
        for (int i = 0; i < counts.length; i++) {
            long n = counts[i];
            long tolerance = n < 1000 ? 0 : n < 10_000 ? 50 : 500;
            assertThat(UsageLines.parseCount(printed.get(i))).as("%d printed as %s", n, printed.get(i))
                    .isBetween(n - tolerance, n + tolerance);
        }
    }
}
