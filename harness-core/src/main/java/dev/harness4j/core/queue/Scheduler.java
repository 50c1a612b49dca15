package dev.harness4j.core.queue;

import dev.harness4j.api.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which queued entries a {@link QueueProcessor} starts next: due entries in queue order,
 * under the caps per harness and per provider, skipping providers paused by a rate limit until
 * their reset time. Claims through the {@link RunQueue}. An entry another process keeps locked is
 * skipped and tried again after {@link #CONTENDED_RETRY}; that memory is its only state, and
 * only the processor's loop thread calls it.
 */
final class Scheduler {
    /** How long an entry that was locked by another process at claim time is left alone: 5 s. */
    static final Duration CONTENDED_RETRY = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

    private final RunQueue queue;
    private final Map<String, Integer> harnessCaps;
    private final Map<String, Integer> providerCaps;
    private final Map<String, Instant> contendedUntil = new HashMap<>();

    Scheduler(RunQueue queue, Map<String, Integer> harnessCaps, Map<String, Integer> providerCaps) {
        this.queue = queue;
        this.harnessCaps = Map.copyOf(harnessCaps);
        this.providerCaps = Map.copyOf(providerCaps);
    }

    /**
     * Claims due entries of the snapshot {@code entries} and hands each to {@code launch}, until
     * {@code full} says no slot is left (or the processor stopped) or the entries run out. A claim
     * waiting for another process's lock on an entry gives up as soon as {@code full} says so.
     *
     * @param pausedProviders providers paused until the given instant by a rate limit this
     *     processor saw, whatever became of the entry that reported it
     * @return when to look again: {@code wakeAt}, or earlier when an entry or a paused provider
     *     becomes due before it
     */
    Instant startWhatFits(List<QueueEntry> entries, Instant now, Instant wakeAt,
            Map<String, Instant> pausedProviders, BooleanSupplier full, Consumer<QueueEntry> launch) {
        Map<String, Integer> byHarness = new HashMap<>();
        Map<String, Integer> byProvider = new HashMap<>();
        Map<String, Instant> providerPausedUntil = new HashMap<>();
        pausedProviders.forEach((p, until) -> {
            if (until.isAfter(now)) {
                providerPausedUntil.put(p, until);
            }
        });
        contendedUntil.values().removeIf(until -> !until.isAfter(now));
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
            if (contendedUntil.containsKey(e.id())) {
                continue;
            }
            Optional<QueueEntry> claimed;
            try {
                claimed = queue.claim(e.id(), full); // full once stopped: a held lock does not keep a stop waiting
            } catch (QueueEntryLockedException locked) {
                log.warn("skipping queue entry {} for {} s: {}", e.id(), CONTENDED_RETRY.toSeconds(),
                        locked.getMessage());
                contendedUntil.put(e.id(), now.plus(CONTENDED_RETRY));
                wakeAt = earlier(wakeAt, now.plus(CONTENDED_RETRY));
                continue;
            }
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
