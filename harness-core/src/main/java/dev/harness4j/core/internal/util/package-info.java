/**
 * The ground floor of harness-core: small helpers (argument checks, the shared JSON mapper, file
 * locks, owner-only files) that import nothing of harness4j but harness-api's values, so that
 * every other package may use them. Not API: public only so the other packages can reach them;
 * they may change or go in any release.
 */
package dev.harness4j.core.internal.util;
