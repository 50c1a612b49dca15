package dev.harness4j.testkit.contract;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.HarnessRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The offline rules of the {@link Harness} contract as plain methods: each returns normally when the
 * adapter keeps the rule and throws an {@link AssertionError} saying which rule it broke and how.
 * {@link HarnessContract} runs them as JUnit tests; call them directly to test a single rule.
 */
public final class HarnessChecks {
    /** The prompt the checks hand to {@code prepare}. */
    public static final String PROMPT = "Contract prompt 7f3a: do the scripted task.";
    /** The model the checks request. */
    public static final String MODEL = "contract-model-7f3a";
    /** The secret the checks' provider carries; it must never reach argv. */
    public static final String SECRET = "sk-harness4j-contract-secret-7f3a";
    /** The size of the one-line output {@link #interpretSurvivesBadOutput} feeds: 10 MB. */
    public static final int HUGE_LINE_BYTES = 10 * 1024 * 1024;

    private HarnessChecks() {}

    /**
     * The adapter is registered in {@code META-INF/services}, once, and its id is unique among all
     * adapters on the class path.
     *
     * @param harness the adapter under test
     */
    public static void registeredOnceWithUniqueId(Harness harness) {
        String id = harness.id();
        require(id != null && !id.isBlank(), "id() is blank");
        require(id.equals(id.strip()) && id.chars().noneMatch(Character::isWhitespace),
                "id() '" + id + "' contains whitespace");
        HarnessRegistry registry;
        try {
            registry = HarnessRegistry.builder().loadServices().build();
        } catch (IllegalStateException e) { // two adapters share an id, or one has a blank id
            throw new AssertionError("the adapters on the class path do not load: " + e.getMessage(), e);
        }
        List<Harness> same = registry.harnesses().stream().filter(h -> id.equals(h.id())).toList();
        require(!same.isEmpty(), harness.getClass().getName() + " (id '" + id + "') is not registered: add its class name"
                + " to META-INF/services/dev.harness4j.api.Harness; loaded: " + registry.ids()
                + " failures: " + registry.loadFailures());
        require(same.size() == 1, "id '" + id + "' is registered " + same.size() + " times: "
                + same.stream().map(h -> h.getClass().getName()).toList());
        require(same.get(0).getClass() == harness.getClass(), "id '" + id + "' belongs to "
                + same.get(0).getClass().getName() + ", not " + harness.getClass().getName());
    }

    /**
     * {@code installInfo()} names a binary without a path, a version probe and an install hint.
     *
     * @param harness the adapter under test
     */
    public static void installInfoIsSensible(Harness harness) {
        InstallInfo info = harness.installInfo();
        require(info != null, "installInfo() returned null");
        require(!info.binary().contains("/"), "installInfo().binary() '" + info.binary()
                + "' is a path; name the binary and let Installations find it");
        require(!info.versionArgs().isEmpty(), "installInfo().versionArgs() is empty: give the CLI's version flag");
        require(!info.installHint().isBlank(), "installInfo().installHint() is blank: say how to install the CLI");
    }

    /**
     * A context as the runner would hand it: the checks' prompt, model and secret, the given
     * workspace and scratch directory.
     *
     * @param workspace the workspace directory
     * @param scratchDir the scratch directory
     * @param executable the CLI's path
     * @return the context
     */
    public static HarnessContext context(Path workspace, Path scratchDir, String executable) {
        return context(workspace, scratchDir, executable, EnumSet.allOf(ApiStyle.class));
    }

    /**
     * A context as {@link #context(Path, Path, String)} makes, its provider serving only the given
     * API styles.
     *
     * @param workspace the workspace directory
     * @param scratchDir the scratch directory
     * @param executable the CLI's path
     * @param apiStyles the styles the provider serves, at least one
     * @return the context
     */
    public static HarnessContext context(Path workspace, Path scratchDir, String executable, Set<ApiStyle> apiStyles) {
        ResolvedProvider provider = new ResolvedProvider("contract", apiStyles,
                URI.create("http://127.0.0.1:9/contract"), Secret.of(SECRET), AuthScheme.API_KEY, MODEL);
        return HarnessContext.builder().runId("run-contract").prompt(PROMPT).provider(provider)
                .workspace(workspace).scratchDir(scratchDir).executable(executable).build();
    }

    /**
     * {@code prepare} is pure and complete: it writes no file under {@code root} (the workspace and
     * scratch directory live there), starts no process, passes the prompt and the model (in argv,
     * stdin, the environment or a file it asks for; an ACP agent's prompt goes in {@code
     * session/prompt} instead) and puts no secret in argv.
     *
     * @param harness the adapter under test
     * @param root a directory holding {@code context}'s workspace and scratch directory
     * @param context the context to prepare, e.g. from {@link #context}
     * @param usesModel whether the CLI calls a model (then the model must reach it)
     * @return the invocation {@code prepare} returned
     */
    public static Invocation prepareIsPure(Harness harness, Path root, HarnessContext context, boolean usesModel) {
        Map<String, String> before = listing(root);
        Set<Long> childrenBefore = children();
        Invocation inv = harness.prepare(context);
        Set<Long> started = children();
        started.removeAll(childrenBefore);
        require(started.isEmpty(), "prepare started processes " + started + ": it must only describe the command");
        Map<String, String> after = listing(root);
        require(before.equals(after), "prepare wrote to the file system (ask for files with Invocation.Builder.file);"
                + " changed: " + diff(before, after));
        require(inv != null, "prepare returned null");
        String argv = String.join(" ", inv.command());
        require(!argv.contains(context.provider().secret().reveal()), "the secret is in argv (visible in ps):"
                + " pass it with Invocation.Builder.secretEnv");
        String everything = argv + "\n" + inv.stdinText().orElse("") + "\n" + String.join("\n", inv.files().values())
                + "\n" + String.join("\n", inv.environment().values());
        // an ACP agent gets the prompt in session/prompt, which harness-core sends
        boolean acp = harness.acpSession(context).isPresent();
        require(acp || everything.contains(context.prompt()), "the prompt reaches the CLI nowhere (argv, stdin, env, files)");
        require(!usesModel || everything.contains(context.model()), "the model '" + context.model()
                + "' reaches the CLI nowhere (argv, stdin, env, files)");
        return inv;
    }

    /**
     * {@code unsupported} and {@code prepare} agree: for a provider serving each single API style,
     * and for the CLI's own login, a provider {@code unsupported} refuses makes {@code prepare}
     * throw a {@link dev.harness4j.api.HarnessException} with exactly that text (so a plan and a
     * run refuse alike), and the text does not hold the key. An adapter that overrides {@code
     * unsupported} must also prepare every provider it accepts.
     *
     * @param harness the adapter under test
     * @param context the context to vary the provider of, e.g. from {@link #context}
     */
    public static void unsupportedAgreesWithPrepare(Harness harness, HarnessContext context) {
        ResolvedProvider base = context.provider();
        List<ResolvedProvider> providers = new ArrayList<>();
        for (ApiStyle style : ApiStyle.values()) {
            providers.add(new ResolvedProvider(base.name() + "-" + style.name().toLowerCase(java.util.Locale.ROOT),
                    EnumSet.of(style), base.baseUrl(), base.secret(), base.auth(), base.model()));
        }
        providers.add(ResolvedProvider.cliLogin(base.name() + "-login", base.model()));
        boolean overridden;
        try {
            overridden = harness.getClass().getMethod("unsupported", ResolvedProvider.class).getDeclaringClass() != Harness.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("Harness.unsupported is missing", e);
        }
        for (ResolvedProvider p : providers) {
            HarnessContext c = new HarnessContext(context.runId(), context.prompt(), p, context.workspace(),
                    context.scratchDir(), context.executable(), context.limits(), context.systemPrompt(), context.options(),
                    context.environment(), context.runningAsRoot());
            java.util.Optional<String> why = harness.unsupported(p);
            require(why != null, "unsupported returned null for provider " + p.name() + ": return Optional.empty()");
            if (why.isPresent()) {
                require(!why.get().contains(base.secret().reveal()), "unsupported's text holds the key");
                require(why.get().contains(p.name()), "unsupported's text does not name provider '" + p.name() + "': "
                        + why.get());
                try {
                    harness.prepare(c);
                    throw new AssertionError("unsupported refuses provider " + p.name() + " (" + why.get()
                            + "), but prepare accepted it: make prepare refuse with unsupported's text");
                } catch (dev.harness4j.api.HarnessException e) {
                    require(why.get().equals(e.getMessage()), "prepare refuses provider " + p.name() + " with another"
                            + " text than unsupported: '" + e.getMessage() + "' vs '" + why.get() + "'");
                }
            } else if (overridden) {
                try {
                    harness.prepare(c);
                } catch (RuntimeException e) {
                    throw new AssertionError("unsupported accepts provider " + p.name() + " (" + p.apiStyles()
                            + "), but prepare refused it: " + e, e);
                }
            }
        }
    }

    /**
     * {@code interpret} returns a result, without throwing, for empty, garbage, truncated and
     * 10 MB-line output, exited cleanly or not; and since nothing was measured, reports no tokens and
     * no cost (absent, never 0).
     *
     * @param harness the adapter under test
     * @param dir an empty directory for the output files
     * @param context the context, e.g. from {@link #context}
     */
    public static void interpretSurvivesBadOutput(Harness harness, Path dir, HarnessContext context) {
        Invocation inv = harness.prepare(context);
        byte[] garbage = new byte[64 * 1024];
        new Random(15).nextBytes(garbage);
        Map<String, byte[]> outputs = new TreeMap<>();
        outputs.put("empty", new byte[0]);
        outputs.put("garbage", garbage);
        outputs.put("truncated", "{\"type\":\"result\",\"usage\":{\"input_tokens\":12,\"out".getBytes(StandardCharsets.UTF_8));
        outputs.put("huge-line", null);
        for (var e : outputs.entrySet()) {
            for (int exit : new int[] {0, 1}) {
                String what = e.getKey() + " stdout and stderr, exit " + exit;
                Execution ex = execution(dir, e.getKey() + "-" + exit, context, inv, e.getValue(), exit);
                HarnessResult r;
                try {
                    r = harness.interpret(ex);
                } catch (RuntimeException | Error t) {
                    throw new AssertionError("interpret threw for " + what + ": " + t, t);
                }
                require(r != null, "interpret returned null for " + what);
                unmeasuredIsAbsent(r, what);
            }
        }
    }

    /**
     * A result for output that measured nothing has no tokens and no cost: absent, never 0.
     *
     * @param result the adapter's result
     * @param what what the output was, for the message
     */
    public static void unmeasuredIsAbsent(HarnessResult result, String what) {
        TokenUsage t = result.tokens();
        require(!t.isMeasured(), "interpret reported tokens " + t + " for " + what
                + ": nothing was measured, so tokens must be TokenUsage.unmeasured() (absent, never 0)");
        require(result.cost() == null, "interpret reported cost " + result.cost() + " for " + what
                + ": nothing was measured, so cost must be null (absent, never 0)");
    }

    /**
     * No measured figure is 0 unless another figure of the same result is positive: a result whose
     * every measured figure is 0 is an unmeasured result written as zeros.
     *
     * @param tokens the tokens to check
     * @param what whose tokens, for the message
     */
    public static void noZeroForUnmeasured(TokenUsage tokens, String what) {
        if (!tokens.isMeasured()) {
            return;
        }
        boolean anyPositive = Stream.of(tokens.input(), tokens.output(), tokens.cacheRead(), tokens.cacheWrite())
                .anyMatch(v -> v != null && v > 0);
        require(anyPositive, what + " tokens are measured but all 0 (" + tokens + "): unmeasured figures are absent");
    }

    private static Execution execution(Path dir, String name, HarnessContext context, Invocation inv, byte[] content,
            int exit) {
        Path out = dir.resolve(name + ".stdout");
        Path err = dir.resolve(name + ".stderr");
        try {
            for (Path p : List.of(out, err)) {
                if (content != null) {
                    Files.write(p, content);
                } else {
                    writeHugeLine(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out, e);
        }
        return new Execution(context, inv, exit, Termination.exited(), out, err, GitChanges.none("0".repeat(40)),
                Duration.ofSeconds(1));
    }

    private static void writeHugeLine(Path p) throws IOException {
        byte[] chunk = "{\"type\":\"text\",\"text\":\"".concat("x".repeat(8192 - 24)).getBytes(StandardCharsets.UTF_8);
        try (OutputStream os = Files.newOutputStream(p)) {
            for (int written = 0; written < HUGE_LINE_BYTES; written += chunk.length) {
                os.write(chunk);
            }
            os.write('\n');
        }
    }

    /**
     * Every file and directory under {@code root}, with its size and modification time.
     *
     * @param root the directory to list
     * @return path to "size mtime" (directories: "dir")
     */
    public static Map<String, String> listing(Path root) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                out.put(root.relativize(p).toString(), a.isDirectory() ? "dir" : a.size() + " " + a.lastModifiedTime());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        return out;
    }

    private static Set<Long> children() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toCollection(java.util.HashSet::new));
    }

    private static List<String> diff(Map<String, String> before, Map<String, String> after) {
        List<String> out = new ArrayList<>();
        after.forEach((k, v) -> {
            if (!v.equals(before.get(k))) {
                out.add(before.containsKey(k) ? "~" + k : "+" + k);
            }
        });
        before.keySet().stream().filter(k -> !after.containsKey(k)).forEach(k -> out.add("-" + k));
        return out;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }
}
