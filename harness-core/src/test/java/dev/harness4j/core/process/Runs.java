package dev.harness4j.core.process;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Test helpers: {@code sh -c} invocations, unique run ids and a listener that records lines. */
final class Runs {
    private Runs() {}

    static String newRunId() {
        return "test-" + UUID.randomUUID();
    }

    static Invocation sh(Path workingDir, String script) {
        return Invocation.builder("sh", "-c", script).workingDir(workingDir).build();
    }

    /** Records every output line and lets a test wait for one. */
    static final class Lines implements HarnessListener {
        final List<HarnessEvent.OutputLine> lines = new CopyOnWriteArrayList<>();
        private final CopyOnWriteArrayList<Waiter> waiters = new CopyOnWriteArrayList<>();

        @Override
        public void onEvent(HarnessEvent event) {
            if (event instanceof HarnessEvent.OutputLine line) {
                lines.add(line);
                for (Waiter w : waiters) {
                    if (w.test.test(line.text())) {
                        w.latch.countDown();
                    }
                }
            }
        }

        List<String> texts() {
            return lines.stream().map(HarnessEvent.OutputLine::text).toList();
        }

        /** Blocks until a line matching {@code test} arrived (or was already there). */
        boolean await(Predicate<String> test, long seconds) throws InterruptedException {
            Waiter w = new Waiter(test);
            waiters.add(w);
            if (lines.stream().anyMatch(l -> test.test(l.text()))) {
                return true;
            }
            return w.latch.await(seconds, TimeUnit.SECONDS);
        }

        private record Waiter(Predicate<String> test, CountDownLatch latch) {
            Waiter(Predicate<String> test) {
                this(test, new CountDownLatch(1));
            }
        }
    }
}
