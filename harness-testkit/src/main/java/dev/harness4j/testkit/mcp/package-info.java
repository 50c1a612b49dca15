/**
 * A scripted MCP server for end-to-end tests: a stdio JSON-RPC server with one tool that records
 * every call's arguments and answers a scripted text, started by the agent CLI inside the run's
 * sandbox; or the same on MCP's streamable HTTP transport ({@link
 * dev.harness4j.testkit.mcp.ScriptedMcpHttp}).
 *
 * <pre>{@code
 * ScriptedMcpServer mcp = ScriptedMcpServer.create(tmp.resolve("mcp"), "ticket 4711 is fixed");
 * RunSpec spec = RunSpec.builder("claude-code", "scripted").prompt("...").baseline(repo)
 *         .mcpServer(mcp.stdio("probe")).build();
 * // after the run: mcp.calls() holds the arguments the model's tool call carried
 * }</pre>
 */
package dev.harness4j.testkit.mcp;
