package dev.harness4j.cli;

import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.core.provider.ProvidersFileEdit;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code providers add NAME --preset P}: adds a provider from a {@link ProviderPreset} to {@code
 * providers.json} (created when missing) with {@link ProvidersFileEdit#add}, the locked, atomic
 * edit {@code providers refresh} makes (the other providers stay byte for byte), then checks it as
 * {@code providers check NAME} does: exit 0 when it answered, 1 when it did not (it stays added),
 * 2 for bad input (nothing written). A key is never taken: only the name of the environment
 * variable that holds it.
 */
@Command(name = "add", mixinStandardHelpOptions = true,
        description = "Adds a provider from a preset to <state-dir>/config/providers.json (a locked, atomic edit;"
                + " the other providers stay as they are), then checks it (exit 1 when it does not answer)."
                + " Keys never go on the command line or in the file: --key-env names the variable holding one.")
final class ProvidersAddCommand implements Callable<Integer> {
    private CommandLine.Model.CommandSpec spec;
    @Mixin
    Harness4j.StateDirOption state = new Harness4j.StateDirOption();
    @Parameters(index = "0", paramLabel = "NAME", description = "the provider's name in providers.json and in --provider")
    String name;
    @Option(names = "--preset", required = true, paramLabel = "PRESET",
            description = "anthropic, openai, openrouter, gemini, ollama or litellm (what each sets: below)")
    String preset;
    @Option(names = "--base-url", paramLabel = "URL", description = "the endpoint instead of the preset's")
    String baseUrl;
    @Option(names = "--key-env", paramLabel = "VAR",
            description = "the NAME of the environment variable holding the key, instead of the preset's")
    String keyEnv;
    @Option(names = "--default-model", paramLabel = "MODEL", description = "the model runs use when they name none")
    String defaultModel;
    @Option(names = {"--key", "--api-key"}, hidden = true, paramLabel = "KEY")
    String key; // refused, and never shown

    /**
     * The presets and what each sets, under the options of {@code --help}: rendered only when
     * help is printed (every command's start builds this model, so nothing is computed here).
     */
    @CommandLine.Spec
    void spec(CommandLine.Model.CommandSpec value) {
        this.spec = value;
        value.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, new Presets());
    }

    /** The {@code --help} footer: the presets. */
    private static final class Presets implements CommandLine.IHelpSectionRenderer {
        @Override
        public String render(CommandLine.Help help) {
            return String.format("%nPresets:%n%s%n%nExample:%n  export ANTHROPIC_API_KEY=...%n"
                    + "  harness4j providers add anthropic --preset anthropic%n", ProviderPreset.describeAll());
        }
    }

    @Override
    public Integer call() {
        if (key != null) {
            throw new IllegalArgumentException("providers add takes no key: a key on the command line lands in the"
                    + " shell's history and the process list. Put it in an environment variable and name that with"
                    + " --key-env VAR (e.g. export ANTHROPIC_API_KEY=..., then --key-env ANTHROPIC_API_KEY)");
        }
        // a conventional variable name: keys have lower-case letters, names (here) do not
        if (keyEnv != null && !keyEnv.matches("[A-Z_][A-Z0-9_]*")) {
            throw new IllegalArgumentException("--key-env takes the NAME of an environment variable in capitals,"
                    + " digits and '_' (e.g. ANTHROPIC_API_KEY), never a key; got a value of " + keyEnv.length()
                    + " characters that is not such a name (not shown)");
        }
        ProviderConfig config = preset().config(name, baseUrl, keyEnv, defaultModel);
        Path stateDir = state.resolve();
        Path file = ProvidersFile.in(stateDir);
        ProvidersFileEdit.add(file, config);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("added provider %s to %s (preset %s): %s %s, %s%s%n", name, file, preset.toLowerCase(Locale.ROOT),
                config.apiStyles().stream().map(s -> s.name().toLowerCase(Locale.ROOT)).sorted()
                        .collect(Collectors.joining("+")), config.baseUrl(),
                config.keyEnv() == null ? "no key" : "key from $" + config.keyEnv(),
                config.defaultModel() == null ? "" : ", default model " + config.defaultModel());
        if (config.keyEnv() != null && System.getenv(config.keyEnv()) == null) {
            out.printf("%s is not set in this environment: export it before runs (the key never goes in the file)%n",
                    config.keyEnv());
        }
        int code = ProvidersCommand.check(Providers.fromStateDir(stateDir), List.of(name), out);
        if (code != Harness4j.OK) {
            out.printf("%s stays in %s; fix what the check says, then: harness4j providers check %s%n", name, file,
                    name);
        }
        return code;
    }

    private ProviderPreset preset() {
        return Arrays.stream(ProviderPreset.values()).filter(p -> p.id().equalsIgnoreCase(preset)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown --preset "
                        + (preset.matches("[a-z]{1,16}") ? "'" + preset + "'" : "(not shown: it could be a key)")
                        + "; use one of " + Arrays.stream(ProviderPreset.values()).map(ProviderPreset::id).toList()
                        + " (harness4j providers add --help says what each sets)"));
    }
}
