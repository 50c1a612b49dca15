package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Holds harness-core's public surface to its module descriptor: every public top-level type
 * lives in an exported package or in an {@code internal} one, and internal packages are never
 * exported. A new public class in a package users cannot see is a mistake this test names.
 */
class PublicSurfaceTest {
    private static ModuleSurface surface() throws Exception {
        return ModuleSurface.of(HarnessRunner.class);
    }

    private static Set<String> exported() throws Exception {
        return surface().descriptor().exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theModuleExportsTheRunnerProvidersQueueProcessAndWorkspaceErrorsAndNothingInternal() throws Exception {
        ModuleDescriptor d = surface().descriptor();
        assertThat(d.name()).isEqualTo("dev.harness4j.core");
        assertThat(exported()).containsExactly("dev.harness4j.core",
                "dev.harness4j.core.pipeline", "dev.harness4j.core.process", "dev.harness4j.core.provider",
                "dev.harness4j.core.queue", "dev.harness4j.core.stages", "dev.harness4j.core.workspace");
        assertThat(surface().classesDir().resolve("dev/harness4j/core/internal")).isDirectory();
        assertThat(d.exports().stream().filter(ModuleDescriptor.Exports::isQualified))
                .as("internal packages are exported only to harness-jobs (jobs live in their own module)")
                .filteredOn(e -> e.targets().contains("dev.harness4j.jobs"))
                .allSatisfy(e -> assertThat(e.targets()).containsExactly("dev.harness4j.jobs"))
                .extracting(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("dev.harness4j.core.internal", "dev.harness4j.core.internal.workspace");
        assertThat(d.exports().stream().filter(ModuleDescriptor.Exports::isQualified))
                .as("and to harness-meter (the meter lives in its own module)")
                .filteredOn(e -> !e.targets().contains("dev.harness4j.jobs"))
                .allSatisfy(e -> assertThat(e.targets()).containsExactly("dev.harness4j.meter"))
                .extracting(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("dev.harness4j.core.internal.run", "dev.harness4j.core.internal.capture",
                        "dev.harness4j.core.internal.trajectory");
        assertThat(d.uses()).as("MeterStage and GatewayStage find harness-meter through ServiceLoader")
                .contains("dev.harness4j.core.stages.WireStages");
        assertThat(surface().classesDir().resolve("dev/harness4j/core/internal/meter")).as("the meter moved to harness-meter")
                .doesNotExist();
        assertThat(surface().classesDir().resolve("dev/harness4j/core/internal/gateway")).as("so did the gateway")
                .doesNotExist();
        assertThat(surface().classesDir().resolve("dev/harness4j/core/job")).as("jobs moved to harness-jobs").doesNotExist();
        assertThat(d.opens()).allSatisfy(o -> assertThat(o.isQualified()).as("opened only to Jackson").isTrue());
    }

    @Test
    void everyPublicTypeIsInAnExportedPackageOrAnInternalOne() throws Exception {
        Set<String> exported = exported();
        List<String> strays = new ArrayList<>();
        List<String> publicTypes = new ArrayList<>();
        for (Class<?> c : surface().publicTypes()) {
            String pkg = c.getPackageName();
            if (exported.contains(pkg)) {
                publicTypes.add(c.getName());
            } else if (!(pkg.contains(".internal.") || pkg.endsWith(".internal"))) {
                strays.add(c.getName());
            }
        }
        assertThat(strays).as("public types outside the exported packages (export the package, or move the type"
                + " to an internal package, or make it package-private)").isEmpty();
        assertThat(publicTypes.stream().filter(n -> n.startsWith("dev.harness4j.core.process.")))
                .as("the process package: what other modules use (bubblewrap's command line and the meter relay are"
                        + " internal)").containsExactlyInAnyOrder("dev.harness4j.core.process.Confinement",
                        "dev.harness4j.core.process.Conversation",
                        "dev.harness4j.core.process.ProcessOutcome", "dev.harness4j.core.process.ProcessRequest",
                        "dev.harness4j.core.process.ProcessSupervisor", "dev.harness4j.core.process.RunEnvironment",
                        "dev.harness4j.core.process.RunMarker",
                        "dev.harness4j.core.process.Sandbox");
        assertThat(publicTypes).as("the exported surface").contains("dev.harness4j.core.HarnessRunner",
                "dev.harness4j.core.RunRecord", "dev.harness4j.core.ResultIndex", "dev.harness4j.core.queue.RunQueue",
                "dev.harness4j.core.provider.Providers");
    }
}
