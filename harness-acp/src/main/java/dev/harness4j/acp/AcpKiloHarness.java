package dev.harness4j.acp;

/** Kilo in ACP mode ({@code kilo acp}), harness id {@code acp:kilo}, from the bundled table. */
public final class AcpKiloHarness extends AcpHarness {
    /** The bundled {@code kilo} row. */
    public AcpKiloHarness() {
        super(AcpAgents.bundled("kilo"));
    }
}
