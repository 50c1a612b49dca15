package dev.harness4j.examples;

import java.nio.file.Path;

/** Test access to {@link BenchMain}'s sample repository. */
public final class BenchMainTesting {
    private BenchMainTesting() {}

    public static Path gitRepo(Path dir) throws Exception {
        return BenchMain.sampleRepo(dir);
    }
}
