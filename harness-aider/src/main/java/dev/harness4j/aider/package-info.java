/** The aider adapter (id {@code aider}, OPAQUE). */
package dev.harness4j.aider;
