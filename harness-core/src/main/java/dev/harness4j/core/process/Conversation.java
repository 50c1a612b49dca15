package dev.harness4j.core.process;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * A line-oriented exchange with a supervised process over its stdin and stdout (an ACP session,
 * say), given to {@link ProcessRequest.Builder#conversation}: the supervisor keeps stdin open for
 * it, hands it every stdout line, and lets the process end once it is {@linkplain #finished()
 * finished}. Its methods are called from the supervisor's threads; an implementation is
 * thread-safe.
 */
public interface Conversation {

    /** How long a process may take to exit by itself once its conversation is finished: {@value} ms. */
    long LINGER_MILLIS = 3_000;

    /**
     * The process started: its stdin is {@code stdin}, which the conversation writes and closes.
     *
     * @param stdin the process's stdin
     * @throws IOException when the first message cannot be written (the process is gone)
     */
    void start(OutputStream stdin) throws IOException;

    /**
     * One line the process printed on stdout ({@code \r} stripped, invalid UTF-8 replaced, the
     * run's secrets redacted), in order, on the stdout drain thread.
     *
     * @param line the line
     */
    void line(String line);

    /**
     * Whether the exchange is over (its answer came, or it gave up, say after a timeout of its own):
     * the process then gets {@link #LINGER_MILLIS} to exit by itself before its tree is stopped,
     * and the run counts as exited, not stopped. Polled at least once a second.
     *
     * @return whether the conversation is over
     */
    boolean finished();

    /**
     * A stop was decided (bail, a limit, shutdown): ask the process to wind down, waiting at most
     * {@code wait} for it to say it did, before its tree is stopped.
     *
     * @param wait how long to wait at most
     */
    void cancel(Duration wait);
}
