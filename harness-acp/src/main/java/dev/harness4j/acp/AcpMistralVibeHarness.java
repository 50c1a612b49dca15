package dev.harness4j.acp;

/** Mistral Vibe in ACP mode ({@code vibe-acp}), harness id {@code acp:mistral-vibe}, from the bundled table. */
public final class AcpMistralVibeHarness extends AcpHarness {
    /** The bundled {@code mistral-vibe} row. */
    public AcpMistralVibeHarness() {
        super(AcpAgents.bundled("mistral-vibe"));
    }
}
