package dev.harness4j.meter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.ModuleSurface;
import dev.harness4j.core.stages.WireStages;
import dev.harness4j.meter.internal.WireStagesProvider;
import java.lang.module.ModuleDescriptor;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * Holds harness-meter's surface to its module descriptor: nothing exported, core required
 * transitively, and the wire stages provided to core's {@link WireStages} both ways (module-info
 * and META-INF/services).
 */
class PublicSurfaceTest {
    private static ModuleSurface surface() throws Exception {
        return ModuleSurface.of(WireStagesProvider.class);
    }

    @Test
    void theModuleExportsNothingAndProvidesTheWireStages() throws Exception {
        ModuleDescriptor d = surface().descriptor();
        assertThat(d.name()).isEqualTo("dev.harness4j.meter");
        assertThat(d.exports()).isEmpty();
        assertThat(d.opens()).isEmpty();
        assertThat(d.requires()).filteredOn(r -> r.name().equals("dev.harness4j.core")).singleElement()
                .satisfies(r -> assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
        assertThat(d.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(WireStages.class.getName());
            assertThat(p.providers()).containsExactly(WireStagesProvider.class.getName());
        });
    }

    @Test
    void everyPublicTypeIsInternalAndTheClassPathFindsTheProvider() throws Exception {
        assertThat(surface().publicTypes()).allSatisfy(c -> assertThat(c.getPackageName())
                .startsWith("dev.harness4j.meter.internal"));
        assertThat(ServiceLoader.load(WireStages.class)).singleElement().isInstanceOf(WireStagesProvider.class);
    }
}
