package dev.harness4j.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One finished run of a real CLI as an adapter's end-to-end test reads it: the record, its
 * {@code meta.json}, the scripted server's requests for the run's model, and the CLI's stdout and
 * stderr lines as the runner's listener saw them.
 *
 * <pre>{@code
 * CapturedRun run = CapturedRun.with(new MyHarness(), server).stateDir(stateDir).home(home)
 *         .captures(Path.of("target/my-captures")).run(provider, spec);
 * assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("completed");
 * }</pre>
 *
 * @param record the run's record
 * @param meta its {@code meta.json}
 * @param requests the requests the server received during the run for the run's model
 * @param stdout the CLI's stdout lines
 * @param stderr the CLI's stderr lines
 */
public record CapturedRun(RunRecord record, JsonNode meta, List<RecordedRequest> requests, List<String> stdout,
        List<String> stderr) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Starts describing a run of one adapter against a scripted server.
     *
     * @param harness the adapter, the only one in the runner's registry
     * @param server the server whose requests the run is read from
     * @return a builder
     */
    public static Builder with(Harness harness, ScriptedModelServer server) {
        return new Builder(Objects.requireNonNull(harness, "harness"), Objects.requireNonNull(server, "server"));
    }

    /** The run's {@code diff.patch}; empty when it changed nothing. */
    public String patch() throws IOException {
        Path p = record.resultDir().resolve("diff.patch");
        return Files.exists(p) ? Files.readString(p) : "";
    }

    /** {@code meta.json}, the stdout and the last ten stderr lines, for an assertion's description. */
    public String describe() {
        return meta.toPrettyString() + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr (tail):\n"
                + String.join("\n", stderr.subList(Math.max(0, stderr.size() - 10), stderr.size()));
    }

    /** How one run is made; {@link #run} may be called more than once. */
    public static final class Builder {
        private final Harness harness;
        private final ScriptedModelServer server;
        private Path stateDir;
        private Path home;
        private Path captures;
        private Sandbox sandbox = Sandbox.AUTO;

        private Builder(Harness harness, ScriptedModelServer server) {
            this.harness = harness;
            this.server = server;
        }

        /** The runner's state dir (required). */
        public Builder stateDir(Path value) {
            this.stateDir = value;
            return this;
        }

        /** The HOME the CLI sees (required): a fake one, so the user's is never read or written. */
        public Builder home(Path value) {
            this.home = value;
            return this;
        }

        /**
         * Where each run's stdout ({@code <model>.stdout.jsonl}), stderr ({@code <model>.stderr.log})
         * and request bodies ({@code <model>.requests.txt}) are written, for fixtures; none when unset.
         */
        public Builder captures(Path value) {
            this.captures = value;
            return this;
        }

        /** The runner's sandbox setting (default {@link Sandbox#AUTO}). */
        public Builder sandbox(Sandbox value) {
            this.sandbox = Objects.requireNonNull(value, "sandbox");
            return this;
        }

        /**
         * Runs the spec with a runner whose only provider is {@code provider} and whose environment
         * is this JVM's with HOME replaced.
         *
         * @param provider what the spec's provider resolves to
         * @param spec the run; its model names the server's requests that belong to it
         * @return the finished run
         */
        public CapturedRun run(ResolvedProvider provider, RunSpec spec) throws IOException {
            Objects.requireNonNull(stateDir, "stateDir");
            Objects.requireNonNull(home, "home");
            List<String> out = new CopyOnWriteArrayList<>();
            List<String> err = new CopyOnWriteArrayList<>();
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("HOME", home.toString());
            int before = server.requests().size();
            RunRecord record;
            try (HarnessRunner runner = HarnessRunner.builder()
                    .stateDir(stateDir)
                    .sandbox(sandbox)
                    .runnerEnvironment(env)
                    .registry(HarnessRegistry.builder().add(harness).build())
                    .providers(only(provider))
                    .listener(e -> {
                        if (e instanceof HarnessEvent.OutputLine o) {
                            (o.stream() == HarnessEvent.Stream.STDOUT ? out : err).add(o.text());
                        }
                    })
                    .build()) {
                record = runner.run(spec);
            }
            String model = spec.model();
            List<RecordedRequest> all = server.requests();
            List<RecordedRequest> requests = all.subList(before, all.size()).stream()
                    .filter(r -> Objects.equals(model, r.model())).toList();
            if (captures != null) {
                Files.createDirectories(captures);
                Files.write(captures.resolve(model + ".stdout.jsonl"), out);
                Files.write(captures.resolve(model + ".stderr.log"), err);
                Files.write(captures.resolve(model + ".requests.txt"), requests.stream().map(RecordedRequest::body).toList());
            }
            JsonNode meta = JSON.readTree(record.resultDir().resolve("meta.json").toFile());
            return new CapturedRun(record, meta, requests, List.copyOf(out), List.copyOf(err));
        }

        private static ProviderResolver only(ResolvedProvider provider) {
            return new ProviderResolver() {
                @Override
                public Optional<ResolvedProvider> resolve(String name, String requestedModel) {
                    return Optional.of(provider);
                }

                @Override
                public Set<String> providerNames() {
                    return Set.of(provider.name());
                }
            };
        }
    }
}
