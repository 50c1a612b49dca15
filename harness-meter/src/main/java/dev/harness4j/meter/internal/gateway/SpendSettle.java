package dev.harness4j.meter.internal.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a key's spend logs until two consecutive reads agree. Gateways write spend rows in
 * batches, so the first non-empty read can be partial; two agreeing reads a poll interval apart
 * (longer than the gateway's flush interval) mean the batch holding the run's last call has been
 * written. Within a budget: when it runs out, the best snapshot seen (the most rows) is kept and
 * the result says it may be partial.
 */
final class SpendSettle {
    private SpendSettle() {}

    /** One read of the spend logs. */
    interface Poll {
        SpendSnapshot read() throws GatewayException, InterruptedException;
    }

    /**
     * What the reads gave.
     *
     * @param best the snapshot kept (the agreed one, else the one with the most rows), or null
     *     when no read succeeded
     * @param settled whether two consecutive reads agreed
     * @param rowsPerPoll the row count of each read, -1 for a failed one
     * @param lastError the last failed read's message, or null
     * @param elapsed how long the reads took
     */
    record Result(SpendSnapshot best, boolean settled, List<Integer> rowsPerPoll, String lastError, Duration elapsed) {
        Result {
            rowsPerPoll = List.copyOf(rowsPerPoll);
        }

        int polls() {
            return rowsPerPoll.size();
        }
    }

    /**
     * Reads until two consecutive reads agree, the budget is spent, or a read fails in a way
     * asking again cannot mend (a refused admin key).
     *
     * @param emptyCanSettle whether two empty reads agree (true when the meter saw no model
     *     request: no row is expected); otherwise empty reads never settle
     */
    static Result settle(Poll poll, Duration budget, Duration interval, boolean emptyCanSettle)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        List<Integer> rows = new ArrayList<>();
        SpendSnapshot previous = null;
        SpendSnapshot best = null;
        String lastError = null;
        while (true) {
            try {
                SpendSnapshot s = poll.read();
                rows.add(s.rowCount());
                if (best == null || s.rowCount() >= best.rowCount()) {
                    best = s;
                }
                if (s.agreesWith(previous) && (emptyCanSettle || !s.isEmpty())) {
                    return new Result(s, true, rows, lastError, Duration.ofNanos(System.nanoTime() - start));
                }
                previous = s;
            } catch (GatewayException e) {
                rows.add(-1);
                lastError = e.getMessage();
                previous = null; // a failed read breaks the pair
                if (!e.retryable()) {
                    break;
                }
            }
            long now = System.nanoTime();
            if (now + interval.toNanos() - deadline > 0) {
                break;
            }
            Thread.sleep(interval.toMillis());
        }
        return new Result(best, false, rows, lastError, Duration.ofNanos(System.nanoTime() - start));
    }
}
