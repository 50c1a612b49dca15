package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.ModuleSurface;
import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Holds harness-jobs' public surface to its module descriptor: the module exports the job package
 * (keeping its name from harness-core) and nothing else, and every other public type is internal.
 */
class PublicSurfaceTest {
    private static ModuleSurface surface() throws Exception {
        return ModuleSurface.of(JobRunner.class);
    }

    @Test
    void theModuleExportsTheJobPackageOnlyAndRequiresCoreTransitively() throws Exception {
        ModuleDescriptor d = surface().descriptor();
        assertThat(d.name()).isEqualTo("dev.harness4j.jobs");
        assertThat(d.exports()).extracting(ModuleDescriptor.Exports::source).containsExactly("dev.harness4j.core.job");
        assertThat(d.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
        assertThat(d.requires()).filteredOn(r -> r.name().equals("dev.harness4j.core")).singleElement()
                .satisfies(r -> assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
        assertThat(d.opens()).isEmpty();
    }

    @Test
    void everyPublicTypeIsInTheJobPackageOrItsInternalOne() throws Exception {
        List<String> strays = new ArrayList<>();
        List<String> exportedTypes = new ArrayList<>();
        for (Class<?> c : surface().publicTypes()) {
            if (c.getPackageName().equals("dev.harness4j.core.job")) {
                exportedTypes.add(c.getName());
            } else if (!c.getPackageName().equals("dev.harness4j.core.job.internal")) {
                strays.add(c.getName());
            }
        }
        assertThat(strays).as("public types outside dev.harness4j.core.job and its internal package").isEmpty();
        assertThat(exportedTypes).as("the exported surface").contains("dev.harness4j.core.job.JobRunner",
                "dev.harness4j.core.job.JobPlan", "dev.harness4j.core.job.PhaseSpec", "dev.harness4j.core.job.JobStatus");
    }
}
