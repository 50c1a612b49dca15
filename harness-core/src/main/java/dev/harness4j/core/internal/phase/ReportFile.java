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
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The agent's report file {@value PhaseReports#REPORT_FILE} in a workspace. Before the run its
 * directory gets a {@code .gitignore} of {@code *}, so that nothing in it is ever staged ({@code
 * git add -A} by the agent, the capture's snapshot, a commit made on the agent's behalf) and it
 * never shows in the diff; the file's content at that point is remembered, so that a report the
 * baseline already had is not taken for this run's. After the run the file is read as a regular
 * file (a symlink is refused, so nothing outside the workspace is read), of at most {@value
 * #MAX_BYTES} bytes, UTF-8, and validated strictly ({@link Claims}).
 */
final class ReportFile {
    /** The largest report read. */
    static final int MAX_BYTES = 64 * 1024;
    static final String DIR = ".harness4j";

    /** What the workspace held before the run. */
    record Before(byte[] content, String note) {}

    /** A report read after the run: claims, or why there are none (null when there was no file). */
    record Read(Claims claims, String problem) {
        static final Read NONE = new Read(null, null);
    }

    private ReportFile() {}

    /** Makes {@code .harness4j/} ignore itself and remembers a report already there; never throws. */
    static Before prepare(Path workspace) {
        Path dir = workspace.resolve(DIR);
        try {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return new Before(null, DIR + " in the workspace is not a directory: the agent cannot write its report");
            }
            Files.createDirectories(dir);
            Path ignore = dir.resolve(".gitignore");
            if (!Files.exists(ignore, LinkOption.NOFOLLOW_LINKS)) {
                Files.writeString(ignore, "*\n", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
            Path report = workspace.resolve(PhaseReports.REPORT_FILE);
            byte[] old = Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(report) : null;
            return new Before(old, null);
        } catch (IOException | RuntimeException e) {
            return new Before(null, "could not prepare " + DIR + "/ for the agent's report: " + e);
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
