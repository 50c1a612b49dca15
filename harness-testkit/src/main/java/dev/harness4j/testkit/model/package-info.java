/**
 * A scripted model server: a local HTTP server that speaks the Anthropic Messages, OpenAI Chat
 * Completions and OpenAI Responses APIs (plus model lists and a LiteLLM-style gateway stub) and
 * plays back a {@link dev.harness4j.testkit.model.Scenario} per model id, so the real harness
 * CLIs can be tested offline and deterministically.
 *
 * <pre>{@code
 * try (ScriptedModelServer server = ScriptedModelServer.start()) {
 *     server.script("scripted-a", Scenario.builder()
 *             .writeFile("hello.txt", "hello\n").usage(100, 20, 0, 0)
 *             .say("Done.")
 *             .build());
 *     // point the CLI at server.baseUrl() (Anthropic) or server.baseUrl() + "/v1" (OpenAI)
 * }
 * }</pre>
 */
package dev.harness4j.testkit.model;
