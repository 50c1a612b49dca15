/**
 * harness4j's services: discovery of adapters ({@link dev.harness4j.core.HarnessRegistry}),
 * installed checks ({@link dev.harness4j.core.Installations}), and, in sub-packages, process
 * supervision, workspaces, capture, providers, the queue, benches and jobs.
 */
package dev.harness4j.core;
