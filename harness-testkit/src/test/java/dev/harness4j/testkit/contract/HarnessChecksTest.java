package dev.harness4j.testkit.contract;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.testkit.GitRepos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit itself: a well-behaved adapter passes each check, and each deliberately broken one is caught. */
class HarnessChecksTest {
    @TempDir
    Path tmp;

    private Path root;
    private HarnessContext context;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        Path ws = GitRepos.withReadme(root.resolve("workspace"));
        context = HarnessChecks.context(ws, Files.createDirectories(root.resolve("scratch")), "/usr/bin/true");
    }

    @Test
    void aWellBehavedAdapterPassesTheOfflineChecks() {
        Harness good = new GoodHarness();
        assertThatCode(() -> HarnessChecks.installInfoIsSensible(good)).doesNotThrowAnyException();
        assertThatCode(() -> HarnessChecks.prepareIsPure(good, root, context, true)).doesNotThrowAnyException();
        assertThatCode(() -> HarnessChecks.interpretSurvivesBadOutput(good, out(), context)).doesNotThrowAnyException();
    }

    @Test
    void anAdapterThatWritesAFileInPrepareIsCaught() {
        Harness broken = new GoodHarness() {
            @Override
            public Invocation prepare(HarnessContext c) {
                try {
                    Files.writeString(c.scratchDir().resolve("config.json"), "{}");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return super.prepare(c);
            }
        };
        assertThatThrownBy(() -> HarnessChecks.prepareIsPure(broken, root, context, true))
                .isInstanceOf(AssertionError.class).hasMessageContaining("wrote to the file system")
                .hasMessageContaining("+scratch/config.json");
    }

    @Test
    void anAdapterThatReturnsZeroTokensForUnmeasuredIsCaught() {
        Harness broken = new GoodHarness() {
            @Override
            public HarnessResult interpret(Execution e) {
                return HarnessResult.builder(Outcomes.opaque(e), e.context().model())
                        .tokens(TokenUsage.ofAdapter(0L, 0L, 0L, 0L)).build();
            }
        };
        assertThatThrownBy(() -> HarnessChecks.interpretSurvivesBadOutput(broken, out(), context))
                .isInstanceOf(AssertionError.class).hasMessageContaining("absent, never 0");
        assertThatThrownBy(() -> HarnessChecks.noZeroForUnmeasured(TokenUsage.ofAdapter(0L, 0L, null, null), "the run's"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("all 0");
        assertThatCode(() -> HarnessChecks.noZeroForUnmeasured(TokenUsage.ofAdapter(10L, 0L, null, null), "the run's"))
                .doesNotThrowAnyException();
    }

    @Test
    void anAdapterThatStartsAProcessInPrepareIsCaught() {
        Process[] started = new Process[1];
        Harness broken = new GoodHarness() {
            @Override
            public Invocation prepare(HarnessContext c) {
                try {
                    started[0] = new ProcessBuilder("sleep", "30").start();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return super.prepare(c);
            }
        };
        try {
            assertThatThrownBy(() -> HarnessChecks.prepareIsPure(broken, root, context, true))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("started processes");
        } finally {
            started[0].destroyForcibly();
        }
    }

    @Test
    void aSecretInArgvIsCaught() {
        Harness broken = new GoodHarness() {
            @Override
            public Invocation prepare(HarnessContext c) {
                return Invocation.builder(c.executable(), "--api-key", c.provider().secret().reveal(), "--model", c.model())
                        .stdin(c.prompt()).workingDir(c.workspace()).build();
            }
        };
        assertThatThrownBy(() -> HarnessChecks.prepareIsPure(broken, root, context, true))
                .isInstanceOf(AssertionError.class).hasMessageContaining("secret is in argv");
    }

    @Test
    void aPromptOrModelThatNeverReachesTheCliIsCaught() {
        Harness noPrompt = new GoodHarness() {
            @Override
            public Invocation prepare(HarnessContext c) {
                return Invocation.builder(c.executable(), "--model", c.model()).workingDir(c.workspace()).build();
            }
        };
        assertThatThrownBy(() -> HarnessChecks.prepareIsPure(noPrompt, root, context, true))
                .isInstanceOf(AssertionError.class).hasMessageContaining("the prompt reaches the CLI nowhere");
        Harness noModel = new GoodHarness() {
            @Override
            public Invocation prepare(HarnessContext c) {
                return Invocation.builder(c.executable()).stdin(c.prompt()).workingDir(c.workspace()).build();
            }
        };
        assertThatThrownBy(() -> HarnessChecks.prepareIsPure(noModel, root, context, true))
                .isInstanceOf(AssertionError.class).hasMessageContaining("model");
        assertThatCode(() -> HarnessChecks.prepareIsPure(noModel, root, context, false)).doesNotThrowAnyException();
    }

    @Test
    void anInterpretThatThrowsOnAHugeLineIsCaught() {
        Harness broken = new GoodHarness() {
            @Override
            public HarnessResult interpret(Execution e) {
                e.forEachStdoutLine(line -> {
                    if (line.length() > 1_000_000) {
                        throw new IllegalStateException("line too long");
                    }
                });
                return super.interpret(e);
            }
        };
        assertThatThrownBy(() -> HarnessChecks.interpretSurvivesBadOutput(broken, out(), context))
                .isInstanceOf(AssertionError.class).hasMessageContaining("interpret threw for huge-line");
    }

    @Test
    void anUnregisteredAdapterAndABadInstallInfoAreCaught() {
        assertThatThrownBy(() -> HarnessChecks.registeredOnceWithUniqueId(new GoodHarness()))
                .isInstanceOf(AssertionError.class).hasMessageContaining("is not registered");
        Harness noHint = new GoodHarness() {
            @Override
            public InstallInfo installInfo() {
                return new InstallInfo("good", List.of("--version"), " ");
            }
        };
        assertThatThrownBy(() -> HarnessChecks.installInfoIsSensible(noHint))
                .isInstanceOf(AssertionError.class).hasMessageContaining("installHint() is blank");
    }

    private Path out() {
        try {
            return Files.createDirectories(tmp.resolve("out"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps every rule: prompt on stdin, model in argv, key in a secret environment variable. */
    private static class GoodHarness implements Harness {
        @Override
        public String id() {
            return "contract-good";
        }

        @Override
        public CompletionMode completionMode() {
            return CompletionMode.OPAQUE;
        }

        @Override
        public InstallInfo installInfo() {
            return new InstallInfo("good", List.of("--version"), "apt-get install good");
        }

        @Override
        public Invocation prepare(HarnessContext c) {
            return Invocation.builder(c.executable(), "--model", c.model()).stdin(c.prompt())
                    .secretEnv("GOOD_API_KEY", c.provider().secret().reveal()).workingDir(c.workspace()).build();
        }

        @Override
        public HarnessResult interpret(Execution e) {
            return HarnessResult.builder(Outcomes.opaque(e), e.context().model()).build();
        }
    }
}
