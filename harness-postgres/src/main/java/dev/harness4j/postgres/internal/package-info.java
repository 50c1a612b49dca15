/** Internals of harness-postgres: migrations, SQL helpers, meta.json columns. Not an API. */
package dev.harness4j.postgres.internal;
