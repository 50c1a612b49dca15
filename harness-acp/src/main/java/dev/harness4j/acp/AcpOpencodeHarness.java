package dev.harness4j.acp;

/** opencode in ACP mode ({@code opencode acp}), harness id {@code acp:opencode}, from the bundled table. */
public final class AcpOpencodeHarness extends AcpHarness {
    /** The bundled {@code opencode} row. */
    public AcpOpencodeHarness() {
        super(AcpAgents.bundled("opencode"));
    }
}
