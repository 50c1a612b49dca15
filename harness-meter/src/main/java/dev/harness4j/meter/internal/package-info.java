/**
 * The metering proxy: a loopback HTTP server per runner that forwards each run's model traffic
 * byte for byte to the real endpoint and reads the wire on the way (tokens, answering models,
 * errors, rate-limit headers). Not exported.
 */
package dev.harness4j.meter.internal;
