/**
 * Phase reports: the self-report file and its contract, the summarizer's model call, the
 * git-derived report, and the rules that pick one for each run ({@link
 * dev.harness4j.core.internal.phase.PhaseReporter}). Not exported.
 */
package dev.harness4j.core.internal.phase;
