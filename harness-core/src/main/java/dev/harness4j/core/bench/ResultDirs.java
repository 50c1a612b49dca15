package dev.harness4j.core.bench;

/** The bench layout's result directory names, {@code results/<harness>__<sanitised model>/}. Pure. */
public final class ResultDirs {
    private ResultDirs() {}

    /** {@code <harness>__<model>} with every character outside {@code [A-Za-z0-9._-]} replaced by {@code _}. */
    public static String name(String harness, String model) {
        return sanitise(harness) + "__" + sanitise(model);
    }

    static String sanitise(String s) {
        String out = s.replaceAll("[^A-Za-z0-9._-]", "_");
        return out.startsWith(".") ? "_" + out.substring(1) : out;
    }
}
