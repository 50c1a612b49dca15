package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

import dev.harness4j.api.Invocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run's process is started with: its command line, environment and files, and the
 * checks that turn a missing binary or working dir into a clear start failure. Pure functions
 * (apart from writing the invocation's files).
 */
final class Launch {
    /** execvp's search path when {@code PATH} is unset. */
    private static final String DEFAULT_PATH = "/bin:/usr/bin";

    private Launch() {}

    /**
     * {@code setsid <argv...>}: the process becomes the leader of a new session and group; when
     * the request is confined, {@code setsid bwrap ... -- <argv...>}.
     */
    static List<String> command(Path setsid, ProcessRequest request) {
        Invocation inv = request.invocation();
        List<String> cmd = new ArrayList<>(inv.command().size() + 1);
        cmd.add(setsid.toString());
        if (request.confinement() != null) {
            cmd.addAll(Bubblewrap.command(request.confinement().including(inv), inv.workingDir(), inv.command()));
        } else {
            cmd.addAll(inv.command());
        }
        return cmd;
    }

    /**
     * The base environment ({@link RunEnvironment#base()} for a run: never the runner's whole one) minus
     * the invocation's removals, plus its variables, {@code PWD}, the sandbox's HOME when confined (unless
     * the invocation sets one) and the run marker (with its scope, when the request has one).
     */
    static Map<String, String> environment(ProcessRequest request) {
        Invocation inv = request.invocation();
        Map<String, String> env = new LinkedHashMap<>();
        request.baseEnvironment().forEach((k, v) -> {
            if (!inv.removes(k)) {
                env.put(k, v);
            }
        });
        env.putAll(inv.environment());
        env.put("PWD", inv.workingDir().toAbsolutePath().toString());
        if (request.confinement() != null && !inv.environment().containsKey("HOME")) {
            env.put("HOME", request.confinement().home().toAbsolutePath().toString());
        }
        env.put(RunMarker.ENV, request.runId());
        if (request.scope() != null) {
            env.put(RunMarker.SCOPE_ENV, request.scope());
        }
        return env;
    }

    /** Writes the invocation's files (owner-only) into the scratch dir; a problem, or null. */
    static String writeFiles(ProcessRequest request) {
        Path scratch = request.scratchDir().toAbsolutePath().normalize();
        for (Map.Entry<String, String> f : request.invocation().files().entrySet()) {
            Path target = scratch.resolve(f.getKey()).normalize();
            try {
                Files.createDirectories(target.getParent());
                Files.writeString(target, f.getValue(), StandardCharsets.UTF_8);
                try {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: keep the default permissions
                }
            } catch (IOException e) {
                return "could not write the invocation's file " + target + ": " + e;
            }
        }
        return null;
    }

    /** Why the invocation cannot start (missing working dir or executable), or null. */
    static String checkStartable(Invocation inv, Map<String, String> env) {
        Path dir = inv.workingDir();
        if (!Files.isDirectory(dir)) {
            return "the working dir " + dir + " does not exist or is not a directory";
        }
        String exe = inv.command().get(0);
        if (exe.indexOf('/') >= 0) {
            Path p = dir.resolve(exe);
            if (!Files.exists(p)) {
                return "the executable " + exe + " does not exist";
            }
            if (Files.isDirectory(p) || !Files.isExecutable(p)) {
                return "the file " + exe + " is not executable (check its permissions)";
            }
            return null;
        }
        String path = env.getOrDefault("PATH", DEFAULT_PATH);
        if (onPath(exe, path).isEmpty()) {
            return "the executable '" + exe + "' was not found on PATH=" + path
                    + " (install it, or give its absolute path)";
        }
        return null;
    }

    /**
     * When {@code setsid} could not exec the command (e.g. a script whose interpreter is
     * missing): what it said, else null. It exits 126 or 127 and says so on stderr.
     */
    static String execFailure(Integer exit, String firstStderrLine) {
        String prefix = "setsid: failed to execute ";
        if (exit != null && (exit == 126 || exit == 127) && firstStderrLine != null
                && firstStderrLine.startsWith(prefix)) {
            return firstStderrLine.substring("setsid: ".length());
        }
        return null;
    }

    /** The first executable file called {@code name} in the directories of {@code path}. */
    static Optional<Path> onPath(String name, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir).resolve(name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
