package dev.harness4j.acp;

/**
 * Codex through its ACP adapter ({@code codex-acp}, npm {@code @zed-industries/codex-acp}), harness
 * id {@code acp:codex}, from the bundled table; its session is switched to {@code full-access}.
 */
public final class AcpCodexHarness extends AcpHarness {
    /** The bundled {@code codex} row. */
    public AcpCodexHarness() {
        super(AcpAgents.bundled("codex"));
    }
}
