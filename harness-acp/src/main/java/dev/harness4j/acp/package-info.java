/**
 * One adapter for any ACP (Agent Client Protocol) agent: harness ids {@code acp:<id>} from a data
 * table ({@link dev.harness4j.acp.AcpAgents}), each a pure description of the session harness-core
 * drives ({@link dev.harness4j.api.AcpSession}), with the outcome, summary and trajectory read from
 * the session's JSON-RPC output ({@link dev.harness4j.acp.AcpHarness}).
 */
package dev.harness4j.acp;
