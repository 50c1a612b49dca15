package dev.harness4j.bench;

import java.nio.file.Path;

/**
 * The container image a task's environment needs (Harbor's {@code environment/}): built from a
 * Dockerfile or a compose file, or named. Only a {@link TaskEnvironment} that runs containers can
 * provide it; {@link TaskEnvironment#host()} refuses such a task at plan time.
 *
 * @param build the Dockerfile or compose file to build it from, or {@code null}
 * @param image the image's name ({@code python:3.12-slim}), or {@code null}
 */
public record TaskImage(Path build, String image) {
    public TaskImage {
        if ((build == null) == (image == null)) {
            throw new IllegalArgumentException("a task image is built from a file or named, exactly one of them");
        }
        if (image != null && image.isBlank()) {
            throw new IllegalArgumentException("the image name is blank");
        }
    }

    /** {@code the image built from environment/Dockerfile}, {@code the image python:3.12}, relative to {@code taskDir}. */
    public String describe(Path taskDir) {
        if (image != null) {
            return "the image " + image;
        }
        Path shown = taskDir != null && build.startsWith(taskDir) ? taskDir.relativize(build) : build;
        return "the image built from " + shown.toString().replace('\\', '/');
    }
}
