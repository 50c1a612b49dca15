package dev.harness4j.bench;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a Harbor verifier's fixed paths are in one run: {@code /tests} (the task's {@code tests/},
 * copied in after the agent) and {@code /logs/verifier} (where {@code test.sh} writes {@code
 * reward.txt} or {@code reward.json}), both per-run directories in the verify step's scratch dir.
 * Without a container to mount them at those paths, the absolute paths are rewritten where the
 * verifier names them: in its command and in the text files copied from {@code tests/} (a path is
 * rewritten only as a whole: {@code /tests/x} and {@code "/tests"} are, {@code /testsuite} and
 * {@code a/tests} are not). A verifier that builds those paths at run time from pieces would miss
 * them; a container environment mounts them instead.
 *
 * @param tests the run's {@code /tests}
 * @param logs the run's {@code /logs/verifier}
 */
record HarborPaths(Path tests, Path logs) {
    /** The largest file rewritten; a bigger one is data, left as it is. */
    private static final long MAX_TEXT = 1 << 20;
    private static final Pattern PATHS = Pattern.compile("(?<![\\w.\\-/])(/logs/verifier|/tests)(?![\\w.\\-])");

    /** {@code text} with Harbor's absolute paths replaced by this run's directories. */
    String rewrite(String text) {
        Matcher m = PATHS.matcher(text);
        StringBuilder sb = new StringBuilder(text.length() + 64);
        while (m.find()) {
            Path to = m.group(1).equals("/tests") ? tests : logs;
            m.appendReplacement(sb, Matcher.quoteReplacement(to.toString()));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** Rewrites the paths in every UTF-8 text file below {@link #tests()} (binary and big files are left as they are). */
    void rewriteFiles() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(tests)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            if (Files.size(f) > MAX_TEXT) {
                continue;
            }
            byte[] bytes = Files.readAllBytes(f);
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                continue; // not text
            }
            if (text.indexOf('\0') >= 0) {
                continue;
            }
            String mapped = rewrite(text);
            if (!mapped.equals(text)) {
                Files.writeString(f, mapped, StandardCharsets.UTF_8);
            }
        }
    }
}
