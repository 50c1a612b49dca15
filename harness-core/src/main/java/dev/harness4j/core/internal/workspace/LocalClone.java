package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.Baseline;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * What {@code git clone --local --no-checkout --template=} makes, written in process: a {@code
 * .git} that owns a copy of every object of the baseline (its packs hard-linked, copied where a
 * link cannot be made; its loose objects written into one new pack, or hard-linked when there
 * are many), {@code origin} = the baseline with its branches as {@code refs/remotes/origin/*} and
 * its tags, and HEAD on the baseline's branch at the run's commit (or detached at it). Like a
 * clone made by git, a {@code git gc} in the baseline cannot take its objects away. It skips
 * {@code git clone}'s process and its {@code git-upload-pack} round trip, which take most of an
 * isolation on a small repository, and the directory and link per loose object, which take most
 * of its file system work.
 *
 * <p>Only for what it reproduces exactly: a Linux file system, a baseline with repository
 * format 0 and no extensions, not shallow and without alternates of its own. Anything else is
 * {@link #write} answering false, for {@code git clone} to do it. Stateless.
 */
final class LocalClone {
    private static final Pattern LOOSE_DIR = Pattern.compile("[0-9a-f]{2}");

    /** Up to this many loose objects of the baseline go into one pack of the clone; more are hard-linked. */
    static final int PACK_LOOSE_MAX = 1_000;

    /** A loose object bigger than this makes all of them hard-linked instead of packed. */
    static final int PACK_LOOSE_MAX_BYTES = 1 << 20;

    /** A pack of the loose objects bigger than this (compressed) is given up for hard links. */
    static final int PACK_LOOSE_MAX_TOTAL_BYTES = 16 << 20;

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
        String url = baseline.repo().toString();
        String branch = baseline.branch();
        if (!supportedHere() || hasLineBreak(url) || hasLineBreak(branch) || hasLineBreak(pushUrl)) {
            return false;
        }
        FileRepositoryBuilder rb = new FileRepositoryBuilder().findGitDir(baseline.repo().toFile()).setMustExist(true);
        rb.setup();
        Path objects = rb.getObjectDirectory().toPath().toRealPath();
        Path dotGit = dir.resolve(Constants.DOT_GIT);
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
            // the objects after the refs were read: every object they name is there to copy
            Files.createDirectories(dotGit.resolve("objects/pack"));
            Files.createDirectories(dotGit.resolve("refs/heads"));
            copyObjects(r, objects, dotGit.resolve("objects"));
        }
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
            // detached at the commit; like git clone then checkout --detach, the local branch of
            // origin's HEAD exists too
            String remoteHeadId = remoteHead == null ? null : refs.get(Constants.R_REMOTES + "origin/" + remoteHead);
            if (remoteHeadId != null) {
                config.append("[branch ").append(quote(remoteHead)).append("]\n\tremote = origin\n\tmerge = ")
                        .append(quote(Constants.R_HEADS + remoteHead)).append('\n');
                Path ref = dotGit.resolve(Constants.R_HEADS + remoteHead);
                Files.createDirectories(ref.getParent());
                Files.writeString(ref, remoteHeadId + "\n");
            }
            Files.writeString(dotGit.resolve(Constants.HEAD), baseline.commit() + "\n");
        }
        Files.writeString(dotGit.resolve(Constants.CONFIG), config);
        return true;
    }

    /**
     * Gives the clone the baseline's objects: its packs hard-linked, and its loose objects either
     * written into one new pack (up to {@value #PACK_LOOSE_MAX} of them, each up to {@value
     * #PACK_LOOSE_MAX_BYTES} bytes, {@value #PACK_LOOSE_MAX_TOTAL_BYTES} bytes in all once
     * compressed: two files instead of a directory and a link per object, which
     * is most of a small clone's file system work) or hard-linked one by one.
     */
    private static void copyObjects(Repository base, Path from, Path to) throws IOException {
        List<Path> loose = new ArrayList<>();
        try (DirectoryStream<Path> top = Files.newDirectoryStream(from)) {
            for (Path d : top) {
                String name = d.getFileName().toString();
                if (name.equals("pack")) {
                    linkAll(d, to.resolve("pack"));
                } else if (LOOSE_DIR.matcher(name).matches() && Files.isDirectory(d)) {
                    loose.add(d);
                }
            }
        }
        if (!loose.isEmpty() && !packLoose(base, loose, to.resolve("pack"))) {
            for (Path d : loose) {
                linkAll(d, Files.createDirectories(to.resolve(d.getFileName().toString())));
            }
        }
    }

    /**
     * Writes the loose objects below {@code dirs} as one pack with its (version 2) index into
     * {@code packDir}, named by the pack's checksum as git names its packs.
     *
     * @return false, having written nothing, when there are too many or too big ones, or one
     *     could not be read (the caller links them instead)
     */
    private static boolean packLoose(Repository base, List<Path> dirs, Path packDir) {
        List<ObjectId> ids = new ArrayList<>();
        for (Path d : dirs) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(d)) {
                for (Path f : files) {
                    String id = d.getFileName().toString() + f.getFileName().toString();
                    if (ObjectId.isId(id)) {
                        ids.add(ObjectId.fromString(id));
                    }
                }
            } catch (IOException e) {
                return false;
            }
        }
        if (ids.size() > PACK_LOOSE_MAX) {
            return false;
        }
        ids.sort(null); // the index lists objects by name; the pack may keep any order, so the same one
        int n = ids.size();
        long[] offsets = new long[n];
        int[] crcs = new int[n];
        byte[] pack;
        byte[] packChecksum;
        try (ObjectReader reader = base.newObjectReader()) {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            buf.write(new byte[] {'P', 'A', 'C', 'K', 0, 0, 0, 2});
            buf.write(ByteBuffer.allocate(4).putInt(n).array());
            Deflater deflater = new Deflater(Deflater.BEST_SPEED);
            byte[] chunk = new byte[8192];
            CRC32 crc = new CRC32();
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            try {
                for (int i = 0; i < n; i++) {
                    ObjectLoader o = reader.open(ids.get(i));
                    if (o.getSize() > PACK_LOOSE_MAX_BYTES) {
                        return false;
                    }
                    byte[] data = o.getCachedBytes();
                    entry.reset();
                    writeObjectHeader(entry, o.getType(), data.length);
                    deflater.reset();
                    deflater.setInput(data);
                    deflater.finish();
                    while (!deflater.finished()) {
                        entry.write(chunk, 0, deflater.deflate(chunk));
                    }
                    crc.reset();
                    crc.update(entry.toByteArray());
                    crcs[i] = (int) crc.getValue();
                    offsets[i] = buf.size();
                    entry.writeTo(buf);
                    if (buf.size() > PACK_LOOSE_MAX_TOTAL_BYTES) {
                        return false; // the pack is built in memory: keep that small
                    }
                }
            } finally {
                deflater.end();
            }
            byte[] body = buf.toByteArray();
            packChecksum = sha1.digest(body);
            pack = new byte[body.length + 20];
            System.arraycopy(body, 0, pack, 0, body.length);
            System.arraycopy(packChecksum, 0, pack, body.length, 20);

            ByteArrayOutputStream idx = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(idx);
            out.write(new byte[] {(byte) 0xff, 't', 'O', 'c'});
            out.writeInt(2);
            int[] fanout = new int[256];
            for (ObjectId id : ids) {
                fanout[id.getFirstByte()]++;
            }
            int total = 0;
            for (int i = 0; i < 256; i++) {
                total += fanout[i];
                out.writeInt(total);
            }
            byte[] raw = new byte[Constants.OBJECT_ID_LENGTH];
            for (ObjectId id : ids) {
                id.copyRawTo(raw, 0);
                out.write(raw);
            }
            for (int c : crcs) {
                out.writeInt(c);
            }
            for (long off : offsets) {
                out.writeInt((int) off); // a small pack: every offset below 2^31
            }
            out.write(packChecksum);
            out.flush();
            byte[] idxBody = idx.toByteArray();
            String name = "pack-" + ObjectId.fromRaw(packChecksum).name();
            Files.write(packDir.resolve(name + ".pack"), pack);
            Files.write(packDir.resolve(name + ".idx"), concat(idxBody, sha1.digest(idxBody)));
            return true;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            return false; // a loose object gone meanwhile (git gc), or unreadable: link them instead
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A pack entry's header: type and size, 4 bits of size in the first byte, then 7 per byte. */
    private static void writeObjectHeader(ByteArrayOutputStream out, int type, long size) {
        int b = (type << 4) | (int) (size & 0x0f);
        size >>>= 4;
        while (size != 0) {
            out.write(b | 0x80);
            b = (int) (size & 0x7f);
            size >>>= 7;
        }
        out.write(b);
    }

    /**
     * Hard-links the files of {@code dir} into {@code target} (copying where a link cannot be
     * made, as across file systems). A file that vanished meanwhile (a {@code git gc} of the
     * baseline) is skipped: the checkout then fails on a missing object, and the caller falls
     * back to {@code git clone}.
     */
    private static void linkAll(Path dir, Path target) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
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

    private static void link(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (NoSuchFileException e) {
            // gone meanwhile; see linkAll
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
