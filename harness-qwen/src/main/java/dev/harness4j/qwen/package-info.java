/**
 * The Qwen Code adapter (id {@code qwen-code}, OPAQUE): {@link dev.harness4j.qwen.QwenHarness}
 * runs {@code qwen --output-format stream-json} with a per-run {@code QWEN_HOME} and reads outcome,
 * tokens and the summary from its events; the answering model and a rate limit's reset time come
 * from the meter.
 */
package dev.harness4j.qwen;
