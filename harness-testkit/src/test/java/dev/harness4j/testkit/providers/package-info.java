/** Tests of the default provider resolver against the real scripted model server. */
package dev.harness4j.testkit.providers;
