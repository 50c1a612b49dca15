package dev.harness4j.core;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A module's compiled classes as its public-surface tests read them: the module descriptor and the
 * public top-level types (core's {@code PublicSurfaceTest}, and harness-jobs' through the test-jar).
 */
public final class ModuleSurface {
    private final Path classesDir;

    private ModuleSurface(Path classesDir) {
        this.classesDir = classesDir;
    }

    /** The surface of the classes directory (or jar's directory) {@code anyType} was loaded from. */
    public static ModuleSurface of(Class<?> anyType) throws URISyntaxException {
        return new ModuleSurface(Path.of(anyType.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    /** The classes directory. */
    public Path classesDir() {
        return classesDir;
    }

    /** The compiled {@code module-info.class}. */
    public ModuleDescriptor descriptor() throws IOException {
        try (InputStream in = Files.newInputStream(classesDir.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /** Every public top-level type (no nested types, no module-info or package-info), loaded without init. */
    public List<Class<?>> publicTypes() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classesDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String rel = classesDir.relativize(f).toString();
                if (rel.equals("module-info.class") || rel.endsWith("package-info.class") || rel.contains("$")) {
                    continue;
                }
                String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
                Class<?> c = Class.forName(name, false, ModuleSurface.class.getClassLoader());
                if (Modifier.isPublic(c.getModifiers())) {
                    out.add(c);
                }
            }
        }
        return out;
    }
}
