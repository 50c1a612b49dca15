package dev.harness4j.testkit.bench;

import dev.harness4j.testkit.GitRepos;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What {@link BenchExtension} gives one test: a started {@link ScriptedModelServer} (requiring
 * {@link ScriptedProvider#KEY}), a fresh state dir, the {@link ScriptedProvider}, a sample
 * repository, and a {@link HarnessRunner} and {@link Bench} wired to them. Closed after the test
 * (server stopped, runner closed, temp dirs deleted).
 */
public final class BenchContext implements AutoCloseable {
    private final Path root;
    private final ScriptedModelServer server;
    private final ScriptedProvider provider;
    private HarnessRunner runner;
    private boolean closed;

    BenchContext() {
        try {
            this.root = Files.createTempDirectory("harness4j-bench-test-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for the bench test", e);
        }
        this.server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
        this.provider = new ScriptedProvider(server);
    }

    public ScriptedModelServer server() {
        return server;
    }

    /** The provider resolver of the name {@value ScriptedProvider#NAME}, for runners and plans. */
    public ScriptedProvider provider() {
        return provider;
    }

    /** Scripts a model on the server; returns this. */
    public BenchContext script(String model, Scenario scenario) {
        server.script(model, scenario);
        return this;
    }

    /** The test's state dir (results under {@code results/}). */
    public Path stateDir() {
        return root.resolve("state");
    }

    /** A git repository with a README and one commit on {@code main}, made on first call ({@link GitRepos#withReadme}). */
    public synchronized Path sampleRepo() {
        Path repo = root.resolve("sample-repo");
        return Files.exists(repo.resolve(".git")) ? repo : GitRepos.withReadme(repo);
    }

    /** A runner on the state dir with the scripted provider (built once, closed after the test). */
    public synchronized HarnessRunner runner() {
        if (runner == null) {
            runner = HarnessRunner.builder().stateDir(stateDir()).providers(provider).build();
        }
        return runner;
    }

    /** A bench builder on this context's {@link #runner()}, printing plain lines. */
    public Bench.Builder bench() {
        return Bench.builder(runner()).out(System.out, false);
    }

    /** The summary of every result in the state dir. */
    public BenchSummary summary() {
        return BenchSummary.read(stateDir());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            if (runner != null) {
                runner.close();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            server.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        try {
            deleteTree(root);
        } catch (IOException e) {
            failure = add(failure, new UncheckedIOException("cannot delete " + root, e));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
