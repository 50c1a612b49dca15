/**
 * Benches against the scripted model server, for tests and demos: {@link
 * dev.harness4j.testkit.bench.ScriptedProvider} (a provider resolver for a running {@link
 * dev.harness4j.testkit.model.ScriptedModelServer}), the JUnit 5 {@link
 * dev.harness4j.testkit.bench.BenchExtension} (a started server and a state dir per test) and
 * {@link dev.harness4j.testkit.bench.RunRecordAssert} (assertions on run records and results).
 */
package dev.harness4j.testkit.bench;
