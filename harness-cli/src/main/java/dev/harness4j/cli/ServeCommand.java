package dev.harness4j.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code harness4j serve}: a local web view of a state dir's benches, live while they run in
 * another process ({@link LiveServer}), or with {@code --db} of what the workers of the shared
 * PostgreSQL database record ({@link LiveDatabase}). Prints {@code watch it live:
 * http://127.0.0.1:PORT/?t=…} and serves until the process is stopped (Ctrl-C).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serves a live web view of the state dir's benches, or with --db of the shared database's,"
                + " (loopback, behind a token) until stopped.")
final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    Harness4j.StateDirOption state = new Harness4j.StateDirOption();
    @Mixin
    DbOptions db = new DbOptions();
    @Option(names = "--port", defaultValue = "0", description = "the port (default 0: any free one)")
    int port;
    @Option(names = "--bind", defaultValue = "127.0.0.1",
            description = "the address to listen on (default 127.0.0.1; another one opens the view to the network)")
    String bind;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        InetAddress address = InetAddress.getByName(bind);
        if (!address.isLoopbackAddress()) {
            spec.commandLine().getErr().println("WARNING: serving on " + bind + ", not loopback: anyone who can reach"
                    + " it and has the URL's token can read the results and bail runs");
        }
        CountDownLatch stop = new CountDownLatch(1);
        LiveState live = db.present() ? new LiveDatabase(db.open("harness4j-serve")) : new LiveFiles(state.resolve());
        LiveServer server;
        try {
            server = new LiveServer(live, new InetSocketAddress(address, port));
        } catch (java.io.IOException | RuntimeException e) {
            live.close();
            throw e;
        }
        try (server) {
            out.println("watch it live: " + server.url());
            out.flush();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close(); // in the hook: the JVM waits for it (the database's scratch files go)
                stop.countDown();
            }, "harness4j-serve-stop"));
            stop.await();
        }
        return Harness4j.OK;
    }
}
