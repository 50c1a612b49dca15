/**
 * Capture of one run's result on disk: the {@link dev.harness4j.core.capture.ResultStore}
 * ({@code <stateDir>/results/<harness>__<model>/} with {@code meta.json}, {@code diff.patch},
 * {@code diffstat.txt}, {@code transcript.log}, {@code events.jsonl}, every file written
 * atomically), the {@link dev.harness4j.core.capture.Redactor} that keeps secret values off
 * disk, and the {@link dev.harness4j.core.capture.EventLog} that records a run's events.
 */
package dev.harness4j.core.capture;
