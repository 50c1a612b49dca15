package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One process for {@link ProcessSupervisor#run(ProcessRequest)} to start, guard and drain.
 *
 * <pre>{@code
 * ProcessRequest request = ProcessRequest.builder("run-42", invocation, runDir)
 *         .limits(Limits.NONE.withInactivityTimeout(Duration.ofMinutes(5)))
 *         .secret(apiKey)
 *         .listener(event -> log.info("{}", event))
 *         .build();
 * }</pre>
 *
 * @param runId the run's id; every spawned process carries it as {@link RunMarker#ENV}. It must
 *     be unique on the machine, not only in this JVM: stopping a run (and the sweep after it
 *     exits) ends every process carrying its id, whoever started it
 * @param invocation what to start
 * @param scratchDir where {@link Invocation#files()} are written (created when missing)
 * @param baseEnvironment the environment to start from, used whole (a runner gives {@link
 *     RunEnvironment#base()}; the default is {@link RunEnvironment#defaults()}, the allowlist of
 *     {@code System.getenv()}); {@link Invocation#removeEnvironment()} is applied to it, then {@link
 *     Invocation#environment()}, then {@code PWD} and the run marker
 * @param stdoutFile receives the raw stdout bytes, for {@code Harness.interpret}
 * @param stderrFile receives the raw stderr bytes
 * @param transcriptFile both streams interleaved by line as UTF-8 text: {@code \r} stripped,
 *     invalid UTF-8 replaced, secrets replaced by {@code ***}; when the supervisor stops the run
 *     or it cannot start, a last line {@code [harness4j] ...} says why
 * @param limits the guard's limits
 * @param secrets values replaced by {@code ***} in the transcript and in events (the
 *     invocation's {@link Invocation#secretValues()} are always added)
 * @param listener receives one {@code OutputLine} event per line
 * @param confinement the bubblewrap sandbox to start the process in ({@link Bubblewrap}), or
 *     null to run it unconfined; when confined, {@code HOME} is {@link Confinement#home()} unless
 *     the invocation sets it
 * @param scope the state dir's {@link RunMarker#scopeOf scope}, carried as {@link
 *     RunMarker#SCOPE_ENV} beside the run id, so that stopping the run spares a run of the same id
 *     under another state dir; null (the builder's default) marks by run id alone
 * @param conversation the exchange over stdin and stdout the process is driven by (stdin then stays
 *     open and {@link Invocation#stdin()} is ignored), or null (the default) for none
 */
public record ProcessRequest(
        String runId,
        Invocation invocation,
        Path scratchDir,
        Map<String, String> baseEnvironment,
        Path stdoutFile,
        Path stderrFile,
        Path transcriptFile,
        Limits limits,
        Set<String> secrets,
        HarnessListener listener,
        Confinement confinement,
        String scope,
        Conversation conversation) {

    /** The longest run id accepted; it travels in every process's environment. */
    public static final int MAX_RUN_ID_LENGTH = 200;

    public ProcessRequest {
        Objects.requireNonNull(runId, "runId");
        if (runId.isEmpty() || runId.length() > MAX_RUN_ID_LENGTH || !runId.chars().allMatch(ProcessRequest::idChar)) {
            throw new IllegalArgumentException("runId must be 1.." + MAX_RUN_ID_LENGTH
                    + " printable characters without spaces, was '" + runId + "'");
        }
        Objects.requireNonNull(invocation, "invocation");
        Objects.requireNonNull(scratchDir, "scratchDir");
        baseEnvironment = Map.copyOf(Objects.requireNonNull(baseEnvironment, "baseEnvironment"));
        Objects.requireNonNull(stdoutFile, "stdoutFile");
        Objects.requireNonNull(stderrFile, "stderrFile");
        Objects.requireNonNull(transcriptFile, "transcriptFile");
        Objects.requireNonNull(limits, "limits");
        secrets = Set.copyOf(Objects.requireNonNull(secrets, "secrets"));
        Objects.requireNonNull(listener, "listener");
        if (scope != null && (scope.isEmpty() || scope.length() > 64 || !scope.chars().allMatch(ProcessRequest::idChar))) {
            throw new IllegalArgumentException("scope must be 1..64 printable characters without spaces, was '" + scope + "'");
        }
    }

    private static boolean idChar(int c) {
        return c > 0x20 && c < 0x7f;
    }

    /**
     * A builder whose defaults put everything in {@code dir}: scratch files there, {@code
     * stdout.log}, {@code stderr.log} and {@code transcript.log}; environment {@link
     * RunEnvironment#defaults()}; no limits; no listener.
     */
    public static Builder builder(String runId, Invocation invocation, Path dir) {
        return new Builder(runId, invocation, dir);
    }

    /** Builds a {@link ProcessRequest}. */
    public static final class Builder {
        private final String runId;
        private final Invocation invocation;
        private Path scratchDir;
        private Map<String, String> baseEnvironment = RunEnvironment.defaults();
        private Path stdoutFile;
        private Path stderrFile;
        private Path transcriptFile;
        private Limits limits = Limits.NONE;
        private final Set<String> secrets = new LinkedHashSet<>();
        private HarnessListener listener = HarnessListener.NONE;
        private Confinement confinement;
        private String scope;
        private Conversation conversation;

        private Builder(String runId, Invocation invocation, Path dir) {
            this.runId = Objects.requireNonNull(runId, "runId");
            this.invocation = Objects.requireNonNull(invocation, "invocation");
            Objects.requireNonNull(dir, "dir");
            this.scratchDir = dir;
            this.stdoutFile = dir.resolve("stdout.log");
            this.stderrFile = dir.resolve("stderr.log");
            this.transcriptFile = dir.resolve("transcript.log");
        }

        public Builder scratchDir(Path v) { this.scratchDir = Objects.requireNonNull(v, "scratchDir"); return this; }
        public Builder baseEnvironment(Map<String, String> v) { this.baseEnvironment = Objects.requireNonNull(v, "baseEnvironment"); return this; }
        public Builder stdoutFile(Path v) { this.stdoutFile = Objects.requireNonNull(v, "stdoutFile"); return this; }
        public Builder stderrFile(Path v) { this.stderrFile = Objects.requireNonNull(v, "stderrFile"); return this; }
        public Builder transcriptFile(Path v) { this.transcriptFile = Objects.requireNonNull(v, "transcriptFile"); return this; }
        public Builder limits(Limits v) { this.limits = Objects.requireNonNull(v, "limits"); return this; }
        public Builder secret(String v) { secrets.add(Objects.requireNonNull(v, "secret")); return this; }
        public Builder secrets(java.util.Collection<String> v) { secrets.addAll(v); return this; }
        public Builder listener(HarnessListener v) { this.listener = Objects.requireNonNull(v, "listener"); return this; }

        /** Confines the process in a bubblewrap sandbox; null (the default) runs it unconfined. */
        public Builder confinement(Confinement v) { this.confinement = v; return this; }

        /**
         * Marks the processes with the state dir's scope ({@link RunMarker#scopeOf}) beside the
         * run id; null (the default) marks by run id alone.
         */
        public Builder scope(String v) { this.scope = v; return this; }

        /** Drives the process over its stdin and stdout ({@link Conversation}); null (the default) for none. */
        public Builder conversation(Conversation v) { this.conversation = v; return this; }

        public ProcessRequest build() {
            return new ProcessRequest(runId, invocation, scratchDir, baseEnvironment, stdoutFile, stderrFile,
                    transcriptFile, limits, secrets, listener, confinement, scope, conversation);
        }
    }
}
