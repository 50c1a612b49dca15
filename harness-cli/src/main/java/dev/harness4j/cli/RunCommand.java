package dev.harness4j.cli;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code run}: one run of a harness on a repository, or, with {@code --follow-up RUN_ID}, a
 * follow-up prompt in a kept run's session and workspace. Prints the run's id, outcome, result
 * dir and, when kept ({@code --keep}), how to follow up. {@code --mcp NAME=COMMAND [ARG...]}
 * (repeatable) gives the agent an MCP server ({@link McpOption}). Exit 0 when the run succeeded, 1 when it
 * ran and did not, 2 for bad input (nothing started).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs one prompt with a harness on a repository, or a follow-up in a kept run's session.")
final class RunCommand implements Callable<Integer> {
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)([smhd])");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    Harness4j.StateDirOption state = new Harness4j.StateDirOption();
    @Mixin
    WireStopOptions stops = new WireStopOptions();

    @Parameters(index = "0", paramLabel = "PROMPT", description = "what to ask the agent")
    String prompt;
    @Option(names = "--harness", description = "the harness id (see: harness4j harnesses); not with --follow-up")
    String harness;
    @Option(names = "--provider", description = "the provider (see: harness4j providers); not with --follow-up")
    String provider;
    @Option(names = "--model", description = "the model (default: the provider's default model)")
    String model;
    @Option(names = "--repo", description = "the git repository the run is isolated from (default .)")
    Path repo;
    @Option(names = "--ref", description = "the ref to start from (default: the repository's HEAD)")
    String ref;
    @Option(names = "--max-runtime", description = "stop the agent after this long: 90s, 30m, 2h or ISO-8601 (PT30M)")
    String maxRuntime;
    @Option(names = "--keep", description = "keep the workspace and the agent's session this long for a follow-up"
            + " (30m, 2h, 1d or ISO-8601)")
    String keep;
    @Option(names = "--mcp", paramLabel = "NAME=COMMAND [ARG...]", description = "give the agent an MCP server for"
            + " this run (repeatable): a command it starts (inside the run's sandbox; an argument that is an absolute"
            + " path, or a ':'-separated list of them, is shown read-only there), or NAME=http(s)://URL")
    List<String> mcp = new ArrayList<>();
    @Option(names = "--mcp-env-from", paramLabel = "SERVER.KEY=VARIABLE", description = "set KEY for the MCP server"
            + " SERVER to the value of this command's environment variable VARIABLE (repeatable): the way to hand a"
            + " server a token; only the variable's name is stored")
    List<String> mcpEnvFrom = new ArrayList<>();
    @Option(names = "--follow-up", paramLabel = "RUN_ID", description = "continue this kept run's session in its"
            + " workspace (it was run with --keep)")
    String followUp;

    @Override
    public Integer call() {
        if (followUp != null && (harness != null || provider != null || model != null || ref != null || repo != null)) {
            throw new IllegalArgumentException("--follow-up continues the kept run's harness, provider, model and"
                    + " workspace: drop --harness, --provider, --model, --repo and --ref");
        }
        if (followUp == null && (harness == null || provider == null)) {
            throw new IllegalArgumentException("run needs --harness and --provider (or --follow-up RUN_ID)");
        }
        Duration keepFor = keep != null ? duration("--keep", keep) : null;
        Duration runtime = maxRuntime != null ? duration("--max-runtime", maxRuntime) : null;
        List<dev.harness4j.api.McpServer> servers = McpOption.withEnvFrom(mcp.stream().map(McpOption::parse).toList(),
                mcpEnvFrom);
        Path stateDir = state.resolve();
        PrintWriter out = spec.commandLine().getOut();
        HarnessRunner.Builder b = stops.apply(HarnessRunner.builder()).stateDir(stateDir)
                .providers(Providers.fromStateDir(stateDir));
        if (keepFor != null) {
            b.keepWorkspace(keepFor);
        }
        try (HarnessRunner runner = b.build()) {
            RunRecord r;
            if (followUp != null) {
                try {
                    KeptWorkspace k = runner.keptWorkspace(followUp).orElse(null);
                    if (k == null || (runtime == null && servers.isEmpty())) {
                        r = runner.followUp(followUp, prompt); // refuses, saying why, when nothing is kept
                    } else {
                        RunSpec.Builder s = RunSpec.builder(k.harness(), k.provider()).model(k.model()).prompt(prompt)
                                .baseline(k.baseline()).ref(k.ref());
                        if (runtime != null) {
                            s.limits(Limits.NONE.withMaxRuntime(runtime));
                        }
                        servers.forEach(s::mcpServer);
                        r = runner.followUp(followUp, s.build());
                    }
                } catch (IllegalStateException e) { // not kept, continued already, expired: nothing started
                    throw new IllegalArgumentException(e.getMessage()
                            + " (from the command line: keep a run with --keep DURATION)", e);
                }
            } else {
                RunSpec.Builder s = RunSpec.builder(harness, provider).model(model).prompt(prompt)
                        .baseline((repo != null ? repo : Path.of(".")).toAbsolutePath().normalize());
                if (ref != null) {
                    s.ref(ref);
                }
                if (runtime != null) {
                    s.limits(Limits.NONE.withMaxRuntime(runtime));
                }
                servers.forEach(s::mcpServer);
                r = runner.run(s.build());
            }
            return print(r, runner, out);
        }
    }

    private static int print(RunRecord r, HarnessRunner runner, PrintWriter out) {
        HarnessResult result = r.result();
        out.printf("run %s: %s%s%n", r.runId(), result.outcome().wireName(),
                result.reason() != null ? " (" + result.reason() + ")" : "");
        out.printf("  result %s%n", r.resultDir());
        if (result.sessionId() != null) {
            out.printf("  session %s%n", result.sessionId());
        }
        runner.keptWorkspace(r.runId()).ifPresent(k -> out.printf(
                "  kept until %s; follow up with: harness4j run --follow-up %s \"...\"%n", k.keptUntil(), r.runId()));
        out.flush();
        return result.outcome().isSuccess() ? Harness4j.OK : Harness4j.FAILED;
    }

    /** {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, or ISO-8601 ({@code PT30M}). */
    static Duration duration(String option, String text) {
        Matcher m = SHORT_DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        Duration d;
        try {
            d = m.matches() ? switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(Long.parseLong(m.group(1)));
                case "m" -> Duration.ofMinutes(Long.parseLong(m.group(1)));
                case "h" -> Duration.ofHours(Long.parseLong(m.group(1)));
                default -> Duration.ofDays(Long.parseLong(m.group(1)));
            } : Duration.parse(text.strip());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(option + " " + text + " is not a duration: write 90s, 30m, 2h, 1d or"
                    + " ISO-8601 such as PT30M");
        }
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(option + " must be positive, was " + text);
        }
        return d;
    }
}
