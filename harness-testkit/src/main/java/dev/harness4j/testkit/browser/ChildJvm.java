package dev.harness4j.testkit.browser;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A second JVM on this test's class path, started for a server a test talks to (e.g. {@code
 * harness4j serve}): it waits for the line the server prints when it is ready and keeps the rest
 * of that line (the URL). {@link #close()} stops the process and waits for it.
 */
public final class ChildJvm implements AutoCloseable {
    /** How long {@link #start} waits for the line at most: 60 s. */
    public static final Duration READY = Duration.ofSeconds(60);
    private final Process process;
    private final String rest;

    private ChildJvm(Process process, String rest) {
        this.process = process;
        this.rest = rest;
    }

    /**
     * Starts {@code mainClass} with {@code args} (after {@code jvmOptions}) and waits up to {@link
     * #READY} for a line of its standard output starting with {@code prefix}; its stderr goes to
     * {@code scratch/<simple name>.err}, quoted when the line never comes.
     *
     * @return the started JVM
     * @throws AssertionError when the process ends or the time passes without the line
     */
    public static ChildJvm start(Path scratch, String mainClass, List<String> jvmOptions, List<String> args, String prefix)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        Path err = scratch.resolve(mainClass.substring(mainClass.lastIndexOf('.') + 1) + ".err");
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(err.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Instant until = Instant.now().plus(READY);
        for (String line; (line = out.readLine()) != null && Instant.now().isBefore(until); ) {
            if (line.startsWith(prefix)) {
                return new ChildJvm(p, line.substring(prefix.length()));
            }
        }
        p.destroyForcibly();
        throw new AssertionError(mainClass + " printed no line starting '" + prefix + "' within " + READY.toSeconds()
                + " s; its stderr: " + Files.readString(err));
    }

    /** The ready line after the prefix. */
    public String rest() {
        return rest;
    }

    /** The process. */
    public Process process() {
        return process;
    }

    /** Stops the JVM (its shutdown hooks run) and waits up to 30 s for it; idempotent. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
