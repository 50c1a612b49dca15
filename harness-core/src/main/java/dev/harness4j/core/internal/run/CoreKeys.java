package dev.harness4j.core.internal.run;

import dev.harness4j.api.Execution;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.EventLog;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.pipeline.Key;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.provider.ModelPrice;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/** The keys the built-in stages share among themselves; not for users (the public ones are in {@code RunKeys}). */
public final class CoreKeys {
    private CoreKeys() {}

    /** The runner's services. Always present. */
    public static final Key<RunnerServices> SERVICES = Key.named("core.services");
    /** The run's bail flag (a login probe stopped by a bail sets it). Always present. */
    public static final Key<AtomicBoolean> BAILED = Key.named("core.bailed");
    /** The stage of the run so far, for {@code meta.json}'s {@code stage} when something fails. */
    public static final Key<RunRecord.Stage> PHASE = Key.named("core.phase");
    /** The run's listener (the runner's, then the run's own); always present. */
    public static final Key<dev.harness4j.api.HarnessListener> LISTENER = Key.named("core.listener");
    /** The run's event log; published by the record stage. */
    public static final Key<EventLog> EVENTS = Key.named("core.events");
    /** The record, once written; published by the record stage. */
    public static final Key<RunRecord> RECORD = Key.named("core.record");
    /** What to run after the result is written, last first (the workspace's removal); read by the record stage. */
    public static final Key<List<AutoCloseable>> CLEANUP = Key.named("core.cleanup");
    /** The kept workspace a follow-up run continues in; put by {@code HarnessRunner.followUp}. */
    public static final Key<dev.harness4j.core.workspace.KeptWorkspace> FOLLOW_UP = Key.named("core.follow-up");
    /** Whether the workspace stage keeps this run's workspace for a follow-up; published by it. */
    public static final Key<Boolean> KEEP_SESSION = Key.named("core.keep-session");
    /** The workspace; published by the workspace stage. */
    public static final Key<Workspace> WORKSPACE = Key.named("core.workspace");
    /** Run by the harness stage after the process ended and before the changes are captured. */
    public static final Key<List<Runnable>> BEFORE_CAPTURE = Key.named("core.before-capture");
    /** What git captured; published by the harness stage. */
    public static final Key<CapturedChanges> CAPTURED = Key.named("core.captured");
    /** What the harness process did; published by the harness stage when it ran. */
    public static final Key<Execution> EXECUTION = Key.named("core.execution");
    /** The confinement of the harness process (absent: unconfined); published by the sandbox stage. */
    public static final Key<Confinement> CONFINEMENT = Key.named("core.confinement");
    /** The confinement of an after-harness command with a scratch dir of its own; published by the sandbox stage. */
    public static final Key<Function<Path, Confinement>> STEP_CONFINEMENT = Key.named("core.step-confinement");
    /** The meter's {@code requests.jsonl}; published by the meter stage. */
    public static final Key<Path> REQUESTS = Key.named("core.requests");
    /** The model's price, when known; published by the meter stage. */
    public static final Key<ModelPrice> PRICE = Key.named("core.price");
}
