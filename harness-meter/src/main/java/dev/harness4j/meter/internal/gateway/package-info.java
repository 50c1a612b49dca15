/**
 * Gateway accounting: a per-run virtual key minted at a LiteLLM proxy before the run, its spend
 * logs read after the run until two consecutive reads agree, then the key revoked. Nothing here
 * ever fails a run; the admin key reaches no file, log or message. Not API.
 */
package dev.harness4j.meter.internal.gateway;
