package dev.harness4j.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds harness-jobs' public surface to its module descriptor: the module exports the job package
 * (keeping its name from harness-core) and nothing else, and every other public type is internal.
 */
class PublicSurfaceTest {
    private static Path classesDir() throws Exception {
        return Path.of(JobRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleDescriptor descriptor() throws Exception {
        try (InputStream in = Files.newInputStream(classesDir().resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    @Test
    void theModuleExportsTheJobPackageOnlyAndRequiresCoreTransitively() throws Exception {
        ModuleDescriptor d = descriptor();
        assertThat(d.name()).isEqualTo("dev.harness4j.jobs");
        assertThat(d.exports()).extracting(ModuleDescriptor.Exports::source).containsExactly("dev.harness4j.core.job");
        assertThat(d.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
        assertThat(d.requires()).filteredOn(r -> r.name().equals("dev.harness4j.core")).singleElement()
                .satisfies(r -> assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
        assertThat(d.opens()).isEmpty();
    }

    @Test
    void everyPublicTypeIsInTheJobPackageOrItsInternalOne() throws Exception {
        Path root = classesDir();
        List<String> strays = new ArrayList<>();
        List<String> exportedTypes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String rel = root.relativize(f).toString();
                if (rel.equals("module-info.class") || rel.endsWith("package-info.class") || rel.contains("$")) {
                    continue;
                }
                String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
                Class<?> c = Class.forName(name, false, PublicSurfaceTest.class.getClassLoader());
                if (!Modifier.isPublic(c.getModifiers())) {
                    continue;
                }
                if (c.getPackageName().equals("dev.harness4j.core.job")) {
                    exportedTypes.add(name);
                } else if (!c.getPackageName().equals("dev.harness4j.core.job.internal")) {
                    strays.add(name);
                }
            }
        }
        assertThat(strays).as("public types outside dev.harness4j.core.job and its internal package").isEmpty();
        assertThat(exportedTypes).as("the exported surface").contains("dev.harness4j.core.job.JobRunner",
                "dev.harness4j.core.job.JobPlan", "dev.harness4j.core.job.PhaseSpec", "dev.harness4j.core.job.JobStatus");
    }
}
