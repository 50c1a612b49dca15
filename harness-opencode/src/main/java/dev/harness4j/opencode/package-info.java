/** The opencode adapter (id {@code opencode}, OPAQUE). */
package dev.harness4j.opencode;
