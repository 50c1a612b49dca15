package dev.harness4j.acp;

/** Gemini CLI in ACP mode ({@code gemini --acp}), harness id {@code acp:gemini}, from the bundled table. */
public final class AcpGeminiHarness extends AcpHarness {
    /** The bundled {@code gemini} row. */
    public AcpGeminiHarness() {
        super(AcpAgents.bundled("gemini"));
    }
}
