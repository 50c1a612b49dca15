package dev.harness4j.cli;

import dev.harness4j.api.McpServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code --mcp} value: {@code NAME=COMMAND [ARG...]} (a stdio server; words split at white
 * space, {@code '...'} and {@code "..."} quote) or {@code NAME=http(s)://...} (an HTTP server).
 * An argument that is the absolute path of an existing file or directory, or a {@code :}-separated
 * list of such paths (a class path), is shown read-only in the run's sandbox, as the command's
 * install is.
 */
final class McpOption {
    private McpOption() {}

    static McpServer parse(String value) {
        int eq = value.indexOf('=');
        if (eq <= 0 || value.substring(eq + 1).isBlank()) {
            throw new IllegalArgumentException("--mcp " + value + " is not NAME=COMMAND [ARG...] or NAME=URL, e.g. "
                    + "--mcp 'tickets=/opt/tickets/bin/tickets-mcp --read-only'");
        }
        String name = value.substring(0, eq).strip();
        String rest = value.substring(eq + 1).strip();
        if (rest.startsWith("http://") || rest.startsWith("https://")) {
            return McpServer.http(name, URI.create(rest));
        }
        List<String> words = words(value, rest);
        McpServer.Stdio s = McpServer.stdio(name, words.get(0), words.subList(1, words.size()).toArray(String[]::new));
        for (String w : words.subList(1, words.size())) {
            for (String part : w.split(java.io.File.pathSeparator)) { // a class path: each entry
                if (part.startsWith("/") && Files.exists(Path.of(part))) {
                    s = s.withReadOnlyPath(Path.of(part));
                }
            }
        }
        return s;
    }

    /**
     * The servers with each {@code --mcp-env-from SERVER.KEY=VARIABLE} applied: the stdio server
     * SERVER gets KEY with the value of this command's environment variable VARIABLE, looked up
     * when the run starts; only the variable's name is stored.
     *
     * @throws IllegalArgumentException for a malformed value or a server that is not a stdio one of this run
     */
    static List<McpServer> withEnvFrom(List<McpServer> servers, List<String> values) {
        List<McpServer> out = new ArrayList<>(servers);
        for (String v : values) {
            int dot = v.indexOf('.');
            int eq = v.indexOf('=');
            if (dot <= 0 || eq < dot + 2 || eq == v.length() - 1) {
                throw new IllegalArgumentException("--mcp-env-from " + v + " is not SERVER.KEY=VARIABLE, e.g. "
                        + "--mcp-env-from tickets.TICKETS_TOKEN=MY_TICKETS_TOKEN");
            }
            String name = v.substring(0, dot);
            int i = 0;
            while (i < out.size() && !out.get(i).name().equals(name)) {
                i++;
            }
            if (i == out.size() || !(out.get(i) instanceof McpServer.Stdio s)) {
                throw new IllegalArgumentException("--mcp-env-from " + v + ": this run has no stdio MCP server named '"
                        + name + "' (give it with --mcp " + name + "=COMMAND ...)");
            }
            out.set(i, s.withEnvFrom(v.substring(dot + 1, eq), v.substring(eq + 1)));
        }
        return out;
    }

    private static List<String> words(String value, String text) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : text.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("--mcp " + value + " has an unclosed " + quote + " quote");
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }
}
