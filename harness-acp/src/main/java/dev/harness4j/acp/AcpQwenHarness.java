package dev.harness4j.acp;

/** Qwen Code in ACP mode ({@code qwen --acp}), harness id {@code acp:qwen-code}, from the bundled table. */
public final class AcpQwenHarness extends AcpHarness {
    /** The bundled {@code qwen-code} row. */
    public AcpQwenHarness() {
        super(AcpAgents.bundled("qwen-code"));
    }
}
