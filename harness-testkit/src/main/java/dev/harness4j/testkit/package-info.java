/**
 * Test support for harness4j users and adapter authors: the scripted model server, a scripted
 * fake harness, and JUnit 5 helpers.
 */
package dev.harness4j.testkit;
