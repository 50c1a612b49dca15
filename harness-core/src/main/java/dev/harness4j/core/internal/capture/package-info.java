/**
 * Capture of one run's result on disk: the {@link dev.harness4j.core.internal.capture.ResultStore}
 * (one directory per run, {@code <stateDir>/results/<task>/<harness>__<provider>__<model>/<runId>/}, with {@code meta.json}, {@code diff.patch},
 * {@code diffstat.txt}, {@code transcript.log}, {@code events.jsonl}, the directory renamed into place whole), the {@link dev.harness4j.core.internal.capture.Redactor} that keeps secret values off
 * disk, and the {@link dev.harness4j.core.internal.capture.EventLog} that records a run's events. Not API.
 */
package dev.harness4j.core.internal.capture;
