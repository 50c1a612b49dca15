/**
 * The durable run queue: {@link dev.harness4j.core.queue.RunQueue} over a {@link
 * dev.harness4j.core.queue.QueueStore} (the embedded default is {@link
 * dev.harness4j.core.queue.FileQueueStore}, one JSON document per entry under {@code
 * <stateDir>/queue/}, finished ones under {@code queue/finished/}), and {@link dev.harness4j.core.queue.QueueProcessor}, which runs the
 * entries with caps, pauses, retries by outcome and a graceful stop.
 *
 * <p>Two seams: {@link dev.harness4j.core.queue.RunLauncher} runs one attempt (what a processor,
 * a PostgreSQL worker and a bench call; {@code RunLauncher.of(runner)}), and {@link
 * dev.harness4j.core.queue.WorkerLoop}'s {@code Source} claims and records attempts: the one
 * worker loop runs the file queue here and PostgreSQL's queue in harness-postgres.
 *
 * <p>Entry life cycle: {@code queued → running → done | failed | interrupted}. Claiming is
 * atomic across threads and processes sharing the state dir. An entry left {@code running} by a
 * process that died ({@code kill -9}) is found by {@link dev.harness4j.core.queue.RunQueue#recover()}
 * at the next start: survivors carrying its run marker are killed, its workspace is removed, and
 * it is queued again with its attempt counted.
 */
package dev.harness4j.core.queue;
