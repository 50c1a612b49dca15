/** harness-core's side of an ACP (Agent Client Protocol) session: the JSON-RPC client over the agent's stdio. */
package dev.harness4j.core.internal.acp;
