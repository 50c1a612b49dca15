package dev.harness4j.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** {@link TaskEnvironment#host()}: this machine, under the runner's supervision and sandbox; no images. */
final class HostEnvironment implements TaskEnvironment {
    static final HostEnvironment INSTANCE = new HostEnvironment();

    private HostEnvironment() {}

    @Override
    public String name() {
        return "host";
    }

    @Override
    public Optional<String> refusal(BenchTask task) {
        return task.image().map(image -> "task " + task.id() + " needs " + image.describe(task.dir().orElse(null)) + "; "
                + (containerRuntime().map(r -> "harness4j runs tasks on the host only (a " + r
                        + " environment is not built yet)").orElse("this machine has no container runtime (docker or podman)"))
                + ". If the task needs nothing the host lacks, say so in its task.toml: [metadata.harness4j] environment"
                + " = \"host\"");
    }

    /** The first of docker and podman on PATH, if any. */
    private static Optional<String> containerRuntime() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : new String[] {"docker", "podman"}) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.of(name);
                }
            }
        }
        return Optional.empty();
    }
}
