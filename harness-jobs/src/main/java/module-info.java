/**
 * harness4j's multi-phase jobs: {@link dev.harness4j.core.job.JobRunner}, job plans, checkpoints and
 * the job state machine, built on harness-core's public API. The package keeps its name
 * {@code dev.harness4j.core.job} from when it lived in harness-core; the machinery lives in
 * {@code dev.harness4j.core.job.internal}, which is not exported.
 */
module dev.harness4j.jobs {
    requires transitive dev.harness4j.core;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports dev.harness4j.core.job;
}
