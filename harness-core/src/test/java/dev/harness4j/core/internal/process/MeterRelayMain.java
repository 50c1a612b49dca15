package dev.harness4j.core.internal.process;

/**
 * Starts a meter relay (in {@code java.io.tmpdir}), prints {@code relay <socket path>} and waits
 * to be killed: {@link MeterRelayKillTest} kills this JVM with {@code -9}, so the relay is never
 * closed.
 */
public final class MeterRelayMain {
    private MeterRelayMain() {}

    public static void main(String[] args) throws Exception {
        MeterRelay relay = MeterRelay.start(1); // never connected to: the port does not matter
        System.out.println("relay " + relay.socket());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
