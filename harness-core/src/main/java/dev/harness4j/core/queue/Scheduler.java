package dev.harness4j.core.queue;

import dev.harness4j.api.Outcome;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Decides which queued entries a {@link QueueProcessor} starts next: due entries in queue order,
 * under the caps per harness and per provider, skipping providers paused by a rate limit until
 * their reset time. Claims through the {@link RunQueue}; holds no mutable state (the processor
 * calls it under its own lock).
 */
final class Scheduler {
    private final RunQueue queue;
    private final Map<String, Integer> harnessCaps;
    private final Map<String, Integer> providerCaps;

    Scheduler(RunQueue queue, Map<String, Integer> harnessCaps, Map<String, Integer> providerCaps) {
        this.queue = queue;
        this.harnessCaps = Map.copyOf(harnessCaps);
        this.providerCaps = Map.copyOf(providerCaps);
    }

    /**
     * Claims due entries of the snapshot {@code entries} and hands each to {@code launch}, until
     * {@code full} says no slot is left or the entries run out.
     *
     * @return when to look again: {@code wakeAt}, or earlier when an entry or a paused provider
     *     becomes due before it
     */
    Instant startWhatFits(List<QueueEntry> entries, Instant now, Instant wakeAt, BooleanSupplier full,
            Consumer<QueueEntry> launch) {
        Map<String, Integer> byHarness = new HashMap<>();
        Map<String, Integer> byProvider = new HashMap<>();
        Map<String, Instant> providerPausedUntil = new HashMap<>();
        for (QueueEntry e : entries) {
            if (e.state() == QueueEntry.State.RUNNING) {
                byHarness.merge(e.spec().harness(), 1, Integer::sum);
                byProvider.merge(e.spec().provider(), 1, Integer::sum);
            }
            if (e.state() == QueueEntry.State.QUEUED && Outcome.RATE_LIMITED.wireName().equals(e.lastOutcome())
                    && e.notBefore() != null && e.notBefore().isAfter(now)) {
                providerPausedUntil.merge(e.spec().provider(), e.notBefore(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        for (QueueEntry e : entries) {
            if (full.getAsBoolean()) {
                break;
            }
            if (e.state() != QueueEntry.State.QUEUED) {
                continue;
            }
            if (!e.isDue(now)) {
                wakeAt = earlier(wakeAt, e.notBefore());
                continue;
            }
            String h = e.spec().harness();
            String p = e.spec().provider();
            Instant paused = providerPausedUntil.get(p);
            if (paused != null) {
                wakeAt = earlier(wakeAt, paused);
                continue;
            }
            if (byHarness.getOrDefault(h, 0) >= harnessCaps.getOrDefault(h, Integer.MAX_VALUE)
                    || byProvider.getOrDefault(p, 0) >= providerCaps.getOrDefault(p, Integer.MAX_VALUE)) {
                continue;
            }
            var claimed = queue.claim(e.id());
            if (claimed.isEmpty()) {
                continue; // another process won it, or it changed under us
            }
            byHarness.merge(h, 1, Integer::sum);
            byProvider.merge(p, 1, Integer::sum);
            launch.accept(claimed.get());
        }
        return wakeAt;
    }

    private static Instant earlier(Instant a, Instant b) {
        return b != null && b.isBefore(a) ? b : a;
    }
}
