package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.UnknownHarnessException;
import org.junit.jupiter.api.Test;

class HarnessRegistryTest {

    @Test
    void loadsAdaptersFromServicesAndABrokenOneDoesNotHideTheRest() {
        HarnessRegistry registry = HarnessRegistry.fromServices();

        assertThat(registry.ids()).containsExactly("alpha", "beta");
        assertThat(registry.loadFailures()).hasSize(2);
        assertThat(registry.loadFailures())
                .anySatisfy(f -> assertThat(f).contains("Broken").contains("missing native library"))
                .anySatisfy(f -> assertThat(f).contains("DoesNotExistHarness"));
    }

    @Test
    void unknownIdNamesItAndListsTheKnownOnes() {
        HarnessRegistry registry = HarnessRegistry.fromServices();

        assertThatThrownBy(() -> registry.require("gpt-engineer"))
                .isInstanceOf(UnknownHarnessException.class)
                .hasMessageContaining("unknown harness 'gpt-engineer'")
                .hasMessageContaining("[alpha, beta]");
    }

    @Test
    void twoAdaptersWithTheSameIdFailNamingBothClasses() {
        assertThatThrownBy(() -> HarnessRegistry.builder().loadServices().add(new TestHarnesses.AlphaTwin()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'alpha'")
                .hasMessageContaining("TestHarnesses$Alpha")
                .hasMessageContaining("TestHarnesses$AlphaTwin");
    }

    @Test
    void adaptersAddedInCodeAreKnown() {
        HarnessRegistry registry = HarnessRegistry.builder().add(new TestHarnesses.AlphaTwin()).build();

        assertThat(registry.require("alpha")).isInstanceOf(TestHarnesses.AlphaTwin.class);
        assertThat(registry.find("beta")).isEmpty();
    }

    @Test
    void anAdapterBuiltAgainstANewerContractIsRefusedNamingBothVersionsAndADeclaredOrUndeclaredOneIsKept() {
        dev.harness4j.api.Harness newer = new TestHarnesses.Base("alpha", "git") {
            @Override
            public int apiVersion() {
                return dev.harness4j.api.Harness.API_VERSION + 1;
            }
        };
        assertThatThrownBy(() -> HarnessRegistry.builder().add(newer))
                .isInstanceOf(dev.harness4j.api.HarnessException.class)
                .hasMessageContaining("contract version " + (dev.harness4j.api.Harness.API_VERSION + 1))
                .hasMessageContaining("this runtime's harness-api has version " + dev.harness4j.api.Harness.API_VERSION);
        dev.harness4j.api.Harness declared = new TestHarnesses.Base("alpha", "git") {
            @Override
            public int apiVersion() {
                return dev.harness4j.api.Harness.API_VERSION;
            }
        };
        assertThat(HarnessRegistry.builder().add(declared).build().require("alpha")).isSameAs(declared);
        assertThat(new TestHarnesses.AlphaTwin().apiVersion()).as("undeclared").isZero();
    }
}
