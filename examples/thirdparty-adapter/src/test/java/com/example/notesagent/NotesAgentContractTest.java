package com.example.notesagent;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/**
 * The harness contract kit run for the notes agent: only harness-testkit's public API, no harness-core.
 * The notes agent calls no model, so the failing-endpoint and timeout checks are skipped.
 */
class NotesAgentContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new NotesAgentHarness();
    }

    @Override
    protected boolean usesModel() {
        return false;
    }

    @Override
    protected String expectedChange() {
        return "NOTES.md";
    }
}
