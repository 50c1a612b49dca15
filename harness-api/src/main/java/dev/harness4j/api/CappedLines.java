package dev.harness4j.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** A file's lines pulled one at a time, each cut at a length ({@code \r} stripped); backs {@link Execution#stdoutLines()}. */
final class CappedLines implements Iterator<String> {
    private final Reader in;
    private final int max;
    private final StringBuilder line = new StringBuilder();
    private String next;
    private boolean eof;

    private CappedLines(Reader in, int max) {
        this.in = in;
        this.max = max;
    }

    /** The lines of {@code file} (none when it is missing), lazily; close the stream to close the file. */
    static Stream<String> of(Path file, int max) {
        if (!Files.exists(file)) {
            return Stream.empty();
        }
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        Reader r;
        try {
            r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder), 64 * 1024);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
        CappedLines lines = new CappedLines(r, max);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(lines, Spliterator.ORDERED), false)
                .onClose(() -> {
                    try {
                        r.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException("could not close " + file, e);
                    }
                });
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (eof) {
            return false;
        }
        try {
            boolean any = false;
            int c;
            while ((c = in.read()) != -1) {
                any = true;
                if (c == '\n') {
                    next = take();
                    return true;
                }
                if (line.length() < max) {
                    line.append((char) c);
                }
            }
            eof = true;
            if (any || line.length() > 0) {
                next = take();
            }
            return next != null;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read a line", e);
        }
    }

    private String take() {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
            end--;
        }
        String s = line.substring(0, end);
        line.setLength(0);
        return s;
    }

    @Override
    public String next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        String s = next;
        next = null;
        return s;
    }
}
