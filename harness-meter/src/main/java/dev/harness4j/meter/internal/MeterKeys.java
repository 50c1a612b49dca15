package dev.harness4j.meter.internal;

import dev.harness4j.core.pipeline.Key;

/** The keys the meter and gateway stages share; not for users. */
public final class MeterKeys {
    private MeterKeys() {}

    /** What the wire showed, once the meter closed; published by the meter stage, read by the gateway's. */
    public static final Key<MeterReport> WIRE = Key.named("meter.wire");
}
