package dev.harness4j.core.workspace;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * What {@code git clone --local --no-checkout --template=} makes, written in process: a {@code
 * .git} whose object store holds hard links to every file of the baseline's (copies where a
 * link cannot be made), {@code origin} = the baseline with its branches as {@code
 * refs/remotes/origin/*} and its tags, and HEAD on the baseline's branch at the run's commit
 * (or detached at it). The clone owns its objects like one made by git: a {@code git gc} in the
 * baseline cannot take them away. It skips {@code git clone}'s process and its {@code
 * git-upload-pack} round trip, which take most of an isolation on a small repository.
 *
 * <p>Only for what it reproduces exactly: a Linux file system, a baseline with repository
 * format 0 and no extensions, not shallow and without alternates of its own. Anything else is
 * {@link #write} answering false, for {@code git clone} to do it. Stateless.
 */
final class LocalClone {
    private static final Pattern LOOSE_DIR = Pattern.compile("[0-9a-f]{2}");

    private LocalClone() {}

    /** Whether this JVM runs where the layout written here is the one {@code git init} would choose. */
    static boolean supportedHere() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    /**
     * Writes the clone's {@code .git} into {@code dir} (which must not hold one yet); the working
     * tree is left for a checkout of HEAD.
     *
     * @param pushUrl the push URL of {@code origin}, or {@code null} for none
     * @return false, having written nothing, when the baseline needs {@code git clone}
     * @throws IOException when writing failed part way (the caller removes {@code dir})
     */
    static boolean write(Baseline baseline, Path dir, String pushUrl) throws IOException {
        if (!supportedHere()) {
            return false;
        }
        FileRepositoryBuilder rb = new FileRepositoryBuilder().findGitDir(baseline.repo().toFile()).setMustExist(true);
        rb.setup();
        Path objects = rb.getObjectDirectory().toPath().toRealPath();
        Map<String, String> refs = new TreeMap<>();
        String remoteHead = null;
        try (Repository r = rb.build()) {
            StoredConfig c = r.getConfig();
            Path common = (r.getCommonDirectory() != null ? r.getCommonDirectory() : r.getDirectory()).toPath();
            if (c.getInt("core", "repositoryformatversion", 0) != 0 || !c.getNames("extensions").isEmpty()
                    || c.getSubsections("extensions").size() > 0 || Files.exists(common.resolve("shallow"))
                    || Files.exists(objects.resolve("info/alternates"))
                    || Files.exists(objects.resolve("info/http-alternates"))) {
                return false;
            }
            for (Ref h : r.getRefDatabase().getRefsByPrefix(Constants.R_HEADS)) {
                if (h.getObjectId() != null) {
                    refs.put(Constants.R_REMOTES + "origin/" + h.getName().substring(Constants.R_HEADS.length()),
                            h.getObjectId().name());
                }
            }
            for (Ref t : r.getRefDatabase().getRefsByPrefix(Constants.R_TAGS)) {
                if (t.getObjectId() != null) {
                    refs.put(t.getName(), t.getObjectId().name());
                }
            }
            Ref head = r.exactRef(Constants.HEAD);
            if (head != null && head.isSymbolic() && head.getTarget().getName().startsWith(Constants.R_HEADS)) {
                remoteHead = head.getTarget().getName().substring(Constants.R_HEADS.length());
            }
        }
        String url = baseline.repo().toString();
        String branch = baseline.branch();
        if (hasLineBreak(url) || hasLineBreak(branch) || hasLineBreak(pushUrl)) {
            return false;
        }
        Path dotGit = dir.resolve(Constants.DOT_GIT);
        Files.createDirectories(dotGit.resolve("objects/info"));
        Files.createDirectories(dotGit.resolve("objects/pack"));
        Files.createDirectories(dotGit.resolve("refs/heads"));
        Files.createDirectories(dotGit.resolve("refs/tags"));
        linkObjects(objects, dotGit.resolve("objects"));

        StringBuilder packed = new StringBuilder();
        refs.forEach((name, id) -> packed.append(id).append(' ').append(name).append('\n'));
        Files.writeString(dotGit.resolve("packed-refs"), packed);
        if (remoteHead != null) {
            Files.createDirectories(dotGit.resolve("refs/remotes/origin"));
            Files.writeString(dotGit.resolve("refs/remotes/origin/HEAD"), "ref: refs/remotes/origin/" + remoteHead + "\n");
        }
        StringBuilder config = new StringBuilder()
                .append("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n")
                .append("[remote \"origin\"]\n\turl = ").append(quote(url)).append('\n')
                .append("\tfetch = +refs/heads/*:refs/remotes/origin/*\n");
        if (pushUrl != null) {
            config.append("\tpushurl = ").append(quote(pushUrl)).append('\n');
        }
        if (branch != null) {
            config.append("[branch ").append(quote(branch)).append("]\n\tremote = origin\n\tmerge = ")
                    .append(quote(Constants.R_HEADS + branch)).append('\n');
            Path ref = dotGit.resolve(Constants.R_HEADS + branch);
            Files.createDirectories(ref.getParent());
            Files.writeString(ref, baseline.commit() + "\n");
            Files.writeString(dotGit.resolve(Constants.HEAD), "ref: " + Constants.R_HEADS + branch + "\n");
        } else {
            Files.writeString(dotGit.resolve(Constants.HEAD), baseline.commit() + "\n");
        }
        Files.writeString(dotGit.resolve(Constants.CONFIG), config);
        return true;
    }

    /**
     * Hard-links the loose object directories and {@code pack/} of {@code from} into {@code to}
     * (copying where a link cannot be made, as across file systems); {@code info/} is left out
     * (what it may hold, alternates, was refused before). A file that vanished meanwhile (a
     * {@code git gc} of the baseline) is skipped: the checkout then fails on a missing object,
     * and the caller falls back to {@code git clone}.
     */
    private static void linkObjects(Path from, Path to) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> top = Files.newDirectoryStream(from)) {
            for (Path d : top) {
                String name = d.getFileName().toString();
                if ((LOOSE_DIR.matcher(name).matches() || name.equals("pack")) && Files.isDirectory(d)) {
                    dirs.add(d);
                }
            }
        }
        for (Path d : dirs) {
            Path target = Files.createDirectories(to.resolve(d.getFileName().toString()));
            try (DirectoryStream<Path> files = Files.newDirectoryStream(d)) {
                for (Path f : files) {
                    String name = f.getFileName().toString();
                    if (name.startsWith("tmp_") || name.startsWith(".tmp") || !Files.isRegularFile(f)) {
                        continue; // another git's object being written, not ours to take
                    }
                    link(f, target.resolve(name));
                }
            } catch (NoSuchFileException e) {
                // the directory went away (git prune): nothing of it to link
            }
        }
    }

    private static void link(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (NoSuchFileException e) {
            // gone meanwhile; see linkObjects
        } catch (IOException | UnsupportedOperationException e) {
            try {
                Files.copy(source, target);
            } catch (NoSuchFileException gone) {
                // gone meanwhile
            }
        }
    }

    private static boolean hasLineBreak(String s) {
        return s != null && (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0);
    }

    /** A git config value or subsection name in double quotes. */
    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
