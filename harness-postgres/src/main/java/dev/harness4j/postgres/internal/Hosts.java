package dev.harness4j.postgres.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's host name, as workers are labelled with it. */
public final class Hosts {
    private Hosts() {}

    public static String name() {
        try {
            String kernel = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
            if (!kernel.isEmpty()) {
                return kernel;
            }
        } catch (IOException e) {
            // not Linux: ask the JDK
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
