package dev.harness4j.core.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Helpers shared by the benchmark programs. */
final class Timing {
    private Timing() {}

    /** Runs a command, failing loudly when it exits non-zero. */
    static void sh(Path dir, String... cmd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("GIT_"));
            pb.environment().put("GIT_AUTHOR_NAME", "bench");
            pb.environment().put("GIT_AUTHOR_EMAIL", "bench@example.com");
            pb.environment().put("GIT_COMMITTER_NAME", "bench");
            pb.environment().put("GIT_COMMITTER_EMAIL", "bench@example.com");
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + new String(out));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%8.1f", v);
    }
}
