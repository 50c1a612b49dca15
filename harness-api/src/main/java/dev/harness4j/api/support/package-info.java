/**
 * Helpers an adapter may build on, beside the contracts of {@link dev.harness4j.api}: the shared
 * outcome rules ({@link dev.harness4j.api.support.Outcomes}: a guard's stop, an HTTP status, a
 * CLI's error wording, a rate limit's reset) and the lazy trajectory reader ({@link
 * dev.harness4j.api.support.StepReader}). Pure functions and single-use readers; JDK only.
 */
package dev.harness4j.api.support;
