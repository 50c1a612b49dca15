package dev.harness4j.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code harness4j} command's entry point.
 *
 * <pre>
 * harness4j bench run --suite suites/basics --harness claude-code,aider --provider anthropic --trials 3
 * harness4j bench summary --bench basics
 * harness4j harnesses check
 * harness4j serve --state-dir ~/.harness4j
 * </pre>
 */
@Command(name = "harness4j", mixinStandardHelpOptions = true, version = "harness4j 0.1.0",
        description = "Runs coding-agent CLIs headless: single runs and follow-ups, benches, jobs, harnesses, providers.",
        subcommands = {BenchCommand.class, HarnessesCommand.class, ProvidersCommand.class,
                JobCommand.class, WorkerCommand.class, RunCommand.class, ServeCommand.class})
public final class Harness4j implements Runnable {
    /** Success. */
    public static final int OK = 0;
    /** Something ran and did not succeed. */
    public static final int FAILED = 1;
    /** Bad input: nothing was started. */
    public static final int BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Options every command that reads a state dir takes. */
    static final class StateDirOption {
        @Option(names = "--state-dir", description = "where queue, runs and results live (default: ~/.harness4j)")
        Path stateDir;

        Path resolve() {
            return stateDir != null ? stateDir : Path.of(System.getProperty("user.home"), ".harness4j");
        }
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with these streams; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(out, err, Embedding.NONE, args);
    }

    /**
     * Runs the command with these streams in a program that gives {@code bench run | resume} its
     * providers ({@link Embedding}); returns the exit code.
     */
    public static int run(PrintWriter out, PrintWriter err, Embedding embedding, String... args) {
        java.util.Objects.requireNonNull(embedding, "embedding");
        CommandLine cl = new CommandLine(new Harness4j()).setOut(out).setErr(err)
                .setExecutionExceptionHandler((e, line, parsed) -> {
                    line.getErr().println(e.getMessage() != null ? e.getMessage() : e.toString());
                    return e instanceof dev.harness4j.api.HarnessException || e instanceof IllegalArgumentException
                            ? BAD_INPUT : FAILED;
                });
        cl.getSubcommands().get("bench").getSubcommands().values().forEach(c -> {
            if (c.getCommand() instanceof BenchCommand.PlanOptions p) {
                p.embedding = embedding;
            }
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println(e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getErr());
            return BAD_INPUT;
        });
        int code = cl.execute(args);
        out.flush(); // a command that print()s without a newline at the end (bench summary --format table)
        err.flush(); // would otherwise lose its output to main's System.exit
        return code;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
