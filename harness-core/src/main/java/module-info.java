/**
 * harness4j's run engine: {@link dev.harness4j.core.HarnessRunner} and its records, the result
 * index, providers, the durable queue, and the process supervisor. Implementation lives in
 * {@code dev.harness4j.core.internal.*}, which is not exported (two packages to harness-jobs, three to harness-meter only).
 */
module dev.harness4j.core {
    requires transitive dev.harness4j.api;
    requires transitive java.net.http;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.annotation;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires org.eclipse.jgit;
    requires org.slf4j;

    exports dev.harness4j.core;
    exports dev.harness4j.core.pipeline;
    exports dev.harness4j.core.process;
    exports dev.harness4j.core.provider;
    exports dev.harness4j.core.queue;
    exports dev.harness4j.core.stages;
    exports dev.harness4j.core.workspace;

    // harness-jobs only: a job plan's MCP servers share the queue entries' JSON (McpServersJson), and a
    // job deletes below its state dir (SafeDelete) and scrubs its push's remote credentials (BranchPusher)
    exports dev.harness4j.core.internal to dev.harness4j.jobs;
    exports dev.harness4j.core.internal.workspace to dev.harness4j.jobs;
    // harness-meter only: its stages share the runner's keys (CoreKeys: services, price, requests.jsonl),
    // write the bodies where the trajectory reads them (RunTrajectory.BODIES) and redact a gateway's
    // failure message with the run's secrets (Redactor)
    exports dev.harness4j.core.internal.run to dev.harness4j.meter;
    exports dev.harness4j.core.internal.capture to dev.harness4j.meter;
    exports dev.harness4j.core.internal.trajectory to dev.harness4j.meter;

    // providers.json and queue entries are bound by Jackson
    opens dev.harness4j.core.provider to com.fasterxml.jackson.databind;

    uses dev.harness4j.api.Harness;
    uses dev.harness4j.api.HarnessSource;
    uses dev.harness4j.api.ProviderResolver;
    uses dev.harness4j.core.pipeline.RunStageFactory;
    uses dev.harness4j.core.stages.WireStages;
}
