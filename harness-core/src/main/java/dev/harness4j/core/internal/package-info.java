/**
 * Small helpers shared by harness-core's packages. Not API: public only so the other packages
 * can reach them; they may change or go in any release.
 */
package dev.harness4j.core.internal;
