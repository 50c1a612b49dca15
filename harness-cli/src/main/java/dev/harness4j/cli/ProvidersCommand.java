package dev.harness4j.cli;

import dev.harness4j.core.provider.CatalogueRefresh;
import dev.harness4j.core.provider.HealthCheck;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code providers list | add | check | refresh}: the providers of {@code <state-dir>/config/providers.json}. */
@Command(name = "providers", mixinStandardHelpOptions = true,
        description = "The providers configured in <state-dir>/config/providers.json.",
        subcommands = {ProvidersCommand.ListCommand.class, ProvidersAddCommand.class, ProvidersCommand.CheckCommand.class,
            ProvidersCommand.RefreshCommand.class})
final class ProvidersCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The named providers, or every configured one. */
    static List<String> names(Providers p, List<String> given) {
        return given == null || given.isEmpty() ? new ArrayList<>(p.providerNames()) : given;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the providers, their models and base URLs.")
    static final class ListCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (ProviderConfig c : Providers.fromStateDir(state.resolve()).configs()) {
                out.printf("%-16s %-40s default %-24s %d models%n", c.name(),
                        c.cliLogin() ? "(the CLI's own login)" : c.baseUrl(), c.defaultModel(),
                        c.models().size());
            }
            return Harness4j.OK;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Sends each provider an authenticated request (exit 1 when one is unhealthy).")
    static final class CheckCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Parameters(arity = "0..*", description = "providers to check (default: all)")
        List<String> providers;

        @Override
        public Integer call() {
            Providers p = Providers.fromStateDir(state.resolve());
            return check(p, names(p, providers), spec.commandLine().getOut());
        }
    }

    /** Checks each named provider's health, a line each; exit 1 when one is unhealthy. */
    static int check(Providers p, List<String> names, PrintWriter out) {
        int bad = 0;
        for (String n : names) {
            if (p.config(n).map(ProviderConfig::cliLogin).orElse(false)) {
                out.printf("%-16s %-9s %s%n", n, "skipped", "the CLI's own login: no endpoint to check");
                continue;
            }
            HealthCheck h = p.health(n);
            bad += h.healthy() ? 0 : 1;
            out.printf("%-16s %-9s %s %s%n", n, h.healthy() ? "ok" : "unhealthy", h.endpoint(),
                    h.detail() == null ? "" : h.detail());
        }
        return bad == 0 ? Harness4j.OK : Harness4j.FAILED;
    }

    @Command(name = "refresh", mixinStandardHelpOptions = true,
            description = "Fetches each provider's model catalogue and stores it as its models.")
    static final class RefreshCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Parameters(arity = "0..*", description = "providers to refresh (default: all)")
        List<String> providers;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Providers p = Providers.fromStateDir(state.resolve());
            for (String n : names(p, providers)) {
                if (p.config(n).map(ProviderConfig::cliLogin).orElse(false)) {
                    out.printf("%-16s skipped: the CLI's own login has no catalogue to fetch%n", n);
                    continue;
                }
                CatalogueRefresh r = p.refresh(n);
                out.printf("%-16s %d added %s, %d removed %s%s%n", n, r.added().size(), r.added(), r.removed().size(),
                        r.removed(), r.defaultModelVanished() ? "; its default model is no longer listed" : "");
            }
            return Harness4j.OK;
        }
    }
}
