/** The Claude Code adapter (id {@code claude-code}, STRUCTURED). */
package dev.harness4j.claude;
