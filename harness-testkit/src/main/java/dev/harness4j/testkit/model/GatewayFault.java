package dev.harness4j.testkit.model;

/**
 * A way for the scripted server's LiteLLM-style gateway to misbehave, for tests of what a run
 * does when its gateway does ({@link ScriptedModelServer#gatewayFault}).
 */
public enum GatewayFault {
    /** Every admin endpoint answers as LiteLLM does. */
    NONE,
    /** {@code POST /key/generate} answers 500: no per-run key can be minted. */
    MINT_FAILS,
    /** {@code GET /spend/logs} answers 500. */
    SPEND_500,
    /** {@code GET /spend/logs} answers 200 with a body that is not JSON. */
    SPEND_GARBAGE,
    /** {@code GET /spend/logs} answers 200 with a JSON object that holds no list of rows. */
    SPEND_WRONG_SHAPE,
    /** {@code POST /key/delete} answers 500 (the key stays live until it expires). */
    DELETE_FAILS
}
