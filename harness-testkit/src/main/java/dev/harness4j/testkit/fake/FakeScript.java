package dev.harness4j.testkit.fake;

import dev.harness4j.api.RunSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the {@link FakeHarness} does, step by step: an immutable list of actions with a text
 * form that travels in a {@link RunSpec} option (or as the prompt).
 *
 * <pre>{@code
 * FakeScript script = FakeScript.builder()
 *         .print("working")
 *         .writeFile("hello.txt", "hello\n")
 *         .commit("add hello")
 *         .exit(0)
 *         .build();
 * RunSpec spec = script.applyTo(RunSpec.builder(FakeHarness.ID, "scripted"))
 *         .prompt("ignored").baseline(repo).build();
 * }</pre>
 *
 * <p>Steps run in order; the script ends with {@code exit 0} unless an {@link Builder#exit}
 * came first. Paths are relative to the workspace.
 *
 * @param actions the steps
 */
public record FakeScript(List<Action> actions) {
    /** The first line of the text form, so a prompt can carry a script. */
    public static final String HEADER = "#fake-script v1";
    /** The line length (newline included) of {@link Builder#flood}. */
    public static final int FLOOD_LINE_BYTES = 1024;

    public FakeScript {
        actions = List.copyOf(Objects.requireNonNull(actions, "actions"));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The script's text form: {@link #HEADER}, then one action per line. */
    public String encode() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (Action a : actions) {
            sb.append(a.verb().name().toLowerCase(java.util.Locale.ROOT));
            for (String arg : a.args()) {
                sb.append('\t').append(escape(arg));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Whether {@code text} is a script's text form. */
    public static boolean isScript(String text) {
        return text != null && text.startsWith(HEADER + "\n");
    }

    /** Parses {@link #encode()}'s output. */
    public static FakeScript decode(String text) {
        if (!isScript(text)) {
            throw new IllegalArgumentException("not a fake script: it must start with '" + HEADER + "'");
        }
        List<Action> actions = new ArrayList<>();
        for (String line : text.substring(HEADER.length() + 1).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\t", -1);
            Verb verb;
            try {
                verb = Verb.valueOf(parts[0].toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown fake script action '" + parts[0] + "' in: " + line, e);
            }
            List<String> args = new ArrayList<>();
            for (int i = 1; i < parts.length; i++) {
                args.add(unescape(parts[i]));
            }
            actions.add(new Action(verb, args));
        }
        return new FakeScript(actions);
    }

    /** Puts this script into the run spec's {@link FakeHarness#SCRIPT_OPTION} option. */
    public RunSpec.Builder applyTo(RunSpec.Builder spec) {
        return spec.option(FakeHarness.SCRIPT_OPTION, encode());
    }

    /** The POSIX {@code sh} program that performs the actions. */
    public String toShell() {
        return FakeShell.render(this);
    }

    /** What the fake can do. */
    public enum Verb {
        PRINT, PRINT_ERR, PRINT_BYTES, PRINT_ENV, REPEAT, COUNT, SILENCE, WRITE_FILE, COMMIT,
        EXIT, IGNORE_TERM, ORPHAN_GRANDCHILD, FLOOD, CALL_MODEL
    }

    /** One step: a verb and its arguments (texts and numbers as strings). */
    public record Action(Verb verb, List<String> args) {
        public Action {
            Objects.requireNonNull(verb, "verb");
            args = List.copyOf(Objects.requireNonNull(args, "args"));
        }

        String arg(int i) {
            if (i >= args.size()) {
                throw new IllegalArgumentException(verb + " needs argument " + (i + 1) + ", got " + args);
            }
            return args.get(i);
        }

        long number(int i) {
            try {
                return Long.parseLong(arg(i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(verb + " argument " + (i + 1) + " must be a number, was " + arg(i), e);
            }
        }
    }

    /** Builds a {@link FakeScript}. */
    public static final class Builder {
        private final List<Action> actions = new ArrayList<>();

        private Builder() {}

        private Builder add(Verb verb, Object... args) {
            List<String> a = new ArrayList<>();
            for (Object o : args) {
                a.add(String.valueOf(Objects.requireNonNull(o, verb + " argument")));
            }
            actions.add(new Action(verb, a));
            return this;
        }

        /** Prints a line to stdout. */
        public Builder print(String line) { return add(Verb.PRINT, line); }

        /** Prints a line to stderr. */
        public Builder printErr(String line) { return add(Verb.PRINT_ERR, line); }

        /** Writes raw bytes to stdout (e.g. invalid UTF-8), no newline added. */
        public Builder printBytes(byte... bytes) {
            StringBuilder hex = new StringBuilder();
            for (byte b : bytes) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return add(Verb.PRINT_BYTES, hex);
        }

        /** Prints the value of an environment variable, e.g. {@link FakeHarness#KEY_ENV} (the API key). */
        public Builder printEnv(String variable) {
            if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("not a variable name: " + variable);
            }
            return add(Verb.PRINT_ENV, variable);
        }

        /** Prints the same line {@code times} times. */
        public Builder repeat(String line, int times) { return repeat(line, times, Duration.ZERO); }

        /** Prints the same line {@code times} times, pausing {@code every} after each. */
        public Builder repeat(String line, int times, Duration every) {
            return add(Verb.REPEAT, line, nonNegative(times, "times"), every.toMillis());
        }

        /** Prints {@code times} different lines {@code "<prefix> 1"}, {@code "<prefix> 2"}, ..., pausing {@code every} after each. */
        public Builder count(String prefix, int times, Duration every) {
            return add(Verb.COUNT, prefix, nonNegative(times, "times"), every.toMillis());
        }

        /** Prints nothing for this long. */
        public Builder silence(Duration duration) { return add(Verb.SILENCE, duration.toMillis()); }

        /** Writes a file in the workspace (parents created). */
        public Builder writeFile(String path, String content) { return add(Verb.WRITE_FILE, path, content); }

        /** {@code git add -A} and commits everything in the workspace. */
        public Builder commit(String message) { return add(Verb.COMMIT, message); }

        /** Exits with this code (later steps are not run). */
        public Builder exit(int code) {
            if (code < 0 || code > 255) {
                throw new IllegalArgumentException("exit code must be 0..255, was " + code);
            }
            return add(Verb.EXIT, code);
        }

        /** Ignores {@code SIGTERM} from here on; children started later inherit that. */
        public Builder ignoreTerm() { return add(Verb.IGNORE_TERM); }

        /**
         * Double-forks a grandchild that calls {@code setsid} (leaving the run's process group)
         * and sleeps for {@code lifetime}, outliving the fake; it ignores {@code SIGTERM} when
         * {@link #ignoreTerm()} came before.
         */
        public Builder orphanGrandchild(Duration lifetime) { return add(Verb.ORPHAN_GRANDCHILD, lifetime.toMillis()); }

        /** Prints {@code bytes} bytes fast, as lines of {@link #FLOOD_LINE_BYTES} bytes ({@code a}s). */
        public Builder flood(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
            }
            return add(Verb.FLOOD, bytes);
        }

        /**
         * Makes one OpenAI Chat Completions call ({@code POST <base URL>/v1/chat/completions},
         * the run's model, its key as a bearer token) with {@code curl}, so that the run's model
         * traffic goes through the meter (and a gateway's spend logs); a failed call exits 93.
         */
        public Builder callModel(String message) { return add(Verb.CALL_MODEL, message); }

        public FakeScript build() {
            return new FakeScript(actions);
        }

        private static int nonNegative(int n, String name) {
            if (n < 0) {
                throw new IllegalArgumentException(name + " must be >= 0, was " + n);
            }
            return n;
        }
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
