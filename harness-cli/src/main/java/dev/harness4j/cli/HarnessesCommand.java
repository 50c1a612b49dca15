package dev.harness4j.cli;

import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.Installation;
import dev.harness4j.core.Installations;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code harnesses list | check}: the adapters on the class path and whether their CLIs are installed. */
@Command(name = "harnesses", mixinStandardHelpOptions = true, description = "The harness adapters and their CLIs.",
        subcommands = {HarnessesCommand.ListCommand.class, HarnessesCommand.CheckCommand.class})
final class HarnessesCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the adapters on the class path and the user's ACP agents (<state dir>/config/acp-agents.json).")
    static final class ListCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (String id : HarnessRegistry.fromServices(state.resolve()).ids()) {
                out.println(id);
            }
            return Harness4j.OK;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Checks that each adapter's CLI is installed (exit 1 when one is not, with its install command).")
    static final class CheckCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            HarnessRegistry registry = HarnessRegistry.fromServices(state.resolve());
            Installations installations = Installations.defaults();
            int missing = 0;
            for (String id : registry.ids()) {
                Harness h = registry.require(id);
                Installation i = installations.check(h);
                if (i.installed()) {
                    out.printf("%-14s ok       %s %s%n", id, i.executablePath().map(Object::toString).orElse(""),
                            i.versionText().orElse(""));
                } else {
                    missing++;
                    out.printf("%-14s missing  install with: %s%n", id, i.installHint());
                }
            }
            return missing == 0 ? Harness4j.OK : Harness4j.FAILED;
        }
    }
}
