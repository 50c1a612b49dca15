/**
 * Jobs' machinery: the transition table, checkpoints and events on disk, the job's git
 * repository, and the loop that runs phases. Not exported.
 */
package dev.harness4j.core.job.internal;
