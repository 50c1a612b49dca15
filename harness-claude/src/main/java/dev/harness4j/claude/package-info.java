/**
 * The Claude Code adapter (id {@code claude-code}, STRUCTURED): {@link
 * dev.harness4j.claude.ClaudeCodeHarness} turns a run into a headless {@code claude -p} call with a
 * per-run config dir and reads the result envelope, error classes, tokens, cost and the models
 * that answered from its {@code stream-json} output. Depends on harness-api, Jackson and SLF4J only.
 */
package dev.harness4j.claude;
