/**
 * A contract test kit for adapter authors: extend {@link dev.harness4j.testkit.contract.HarnessContract}
 * with your adapter and every rule of the {@link dev.harness4j.api.Harness} contract is checked, offline
 * and (tagged {@code real-cli}) against your real CLI and the scripted model server.
 * {@link dev.harness4j.testkit.contract.HarnessChecks} holds the same checks as plain methods.
 */
package dev.harness4j.testkit.contract;
