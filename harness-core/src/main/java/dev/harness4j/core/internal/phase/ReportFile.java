package dev.harness4j.core.internal.phase;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.PhaseReports;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The agent's report file {@value PhaseReports#REPORT_FILE} in a workspace. Before the run, the
 * content a report already had (a baseline that tracks one) is remembered, so that it is not taken
 * for this run's; nothing is written. After the run, before the changes are captured, the file is
 * read as a regular file (a symlink is refused, so nothing outside the workspace is read), of at
 * most {@value #MAX_BYTES} bytes, UTF-8, validated strictly ({@link Claims}), and then removed
 * from the checkout (with its directory when that is left empty), so that it is in neither the
 * diff, the diffstat nor a commit the library makes. Nothing is ignored while the agent runs: aider
 * refuses to edit a git-ignored file, and commits fail on one. A report the agent committed itself
 * stays in its commits and the diff, with a note.
 */
final class ReportFile {
    /** The largest report read. */
    static final int MAX_BYTES = 64 * 1024;
    static final String DIR = ".harness4j";

    /** What the workspace held before the run. */
    record Before(byte[] content, boolean dirExisted, String note) {}

    /** A report read after the run: claims, or why there are none (null when there was no file). */
    record Read(Claims claims, String problem) {
        static final Read NONE = new Read(null, null);
    }

    private ReportFile() {}

    /** Remembers a report already in the checkout (and whether its directory was there); never throws. */
    static Before prepare(Path workspace) {
        Path dir = workspace.resolve(DIR);
        try {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return new Before(null, true, DIR + " in the workspace is not a directory: the agent cannot write its"
                        + " report");
            }
            Path report = workspace.resolve(PhaseReports.REPORT_FILE);
            byte[] old = Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(report) : null;
            return new Before(old, Files.exists(dir, LinkOption.NOFOLLOW_LINKS), null);
        } catch (IOException | RuntimeException e) {
            return new Before(null, true, "could not read " + PhaseReports.REPORT_FILE + " before the run: " + e);
        }
    }

    /** What {@link #remove} did: a note or {@code null}, and whether it removed a report the agent committed. */
    record Removal(String note, boolean committedByAgent) {}

    /**
     * Removes the report from the checkout after {@link #read}: the file (a symlink itself, not
     * its target), then its directory when it is empty and was not there before the run. A report
     * the agent committed (at HEAD, absent before the run) is removed too, so the captured tree and
     * the diff leave it out; it stays in the agent's commits, and its removal is the only
     * uncommitted change it makes. A report the baseline had is left alone.
     */
    static Removal remove(Path workspace, Before before) {
        Path file = workspace.resolve(PhaseReports.REPORT_FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || before.content() != null) {
            return new Removal(null, false);
        }
        boolean committed = GitFacts.tracked(workspace, PhaseReports.REPORT_FILE);
        try {
            Files.delete(file);
            Path dir = workspace.resolve(DIR);
            if (!before.dirExisted() && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                try (var left = Files.list(dir)) {
                    if (left.findAny().isEmpty()) {
                        Files.delete(dir);
                    }
                }
            }
            return new Removal(committed ? PhaseReports.REPORT_FILE + " was committed by the agent: it stays in its"
                    + " commits; removed from the captured changes (the tree shows its deletion as uncommitted)" : null,
                    committed);
        } catch (IOException | RuntimeException e) {
            return new Removal("could not remove " + PhaseReports.REPORT_FILE + " from the checkout (it may show in the"
                    + " diff): " + e, false);
        }
    }

    /** Reads and validates the report; {@link Read#NONE} when the agent wrote none. */
    static Read read(ObjectMapper mapper, Path workspace, Before before) {
        Path file = workspace.resolve(PhaseReports.REPORT_FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Read.NONE;
        }
        if (Files.isSymbolicLink(workspace.resolve(DIR)) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return new Read(null, "it is not a regular file (a symlink or a directory is not read)");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            return Read.NONE;
        } catch (IOException e) {
            return new Read(null, "it could not be read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            return new Read(null, "it is larger than " + MAX_BYTES + " bytes");
        }
        if (before.content() != null && Arrays.equals(before.content(), bytes)) {
            return new Read(null, "it is the one the baseline already had, not written during this run");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return new Read(null, "it is not UTF-8 text");
        }
        try {
            return new Read(Claims.parse(mapper, text, true), null);
        } catch (Claims.Invalid e) {
            return new Read(null, e.getMessage());
        }
    }
}
