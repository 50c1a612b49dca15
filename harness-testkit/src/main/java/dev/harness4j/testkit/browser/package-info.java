/**
 * A real headless browser for tests of harness4j's web pages ({@code harness4j serve}): Debian's
 * Chromium driven through chromedriver's W3C WebDriver API with the JDK's HTTP client.
 */
package dev.harness4j.testkit.browser;
