/**
 * A scripted fake harness for tests: {@link dev.harness4j.testkit.fake.FakeHarness} (id {@code
 * fake}, OPAQUE) runs a POSIX {@code sh} script generated from a {@link
 * dev.harness4j.testkit.fake.FakeScript}, so every behaviour of the run engine (commits, dirty
 * trees, silence, floods, stubborn process trees, secrets) can be tested with real processes
 * and real git. It is not registered for {@code ServiceLoader}: add it in code with {@code
 * HarnessRegistry.builder().add(new FakeHarness())}.
 */
package dev.harness4j.testkit.fake;
