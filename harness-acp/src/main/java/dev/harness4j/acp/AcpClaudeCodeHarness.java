package dev.harness4j.acp;

/**
 * Claude Code through its ACP adapter ({@code claude-agent-acp}, npm {@code
 * @agentclientprotocol/claude-agent-acp}), harness id {@code acp:claude-code}, from the bundled table.
 */
public final class AcpClaudeCodeHarness extends AcpHarness {
    /** The bundled {@code claude-code} row. */
    public AcpClaudeCodeHarness() {
        super(AcpAgents.bundled("claude-code"));
    }
}
