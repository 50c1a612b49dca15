package dev.harness4j.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Who the JVM runs as. */
final class RunnerIdentity {
    private RunnerIdentity() {}

    /** Whether the JVM runs as root: uid 0 in {@code /proc/self/status}, else the user name. */
    static boolean runningAsRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall back to the user name
        }
        return "root".equals(System.getProperty("user.name"));
    }
}
