package dev.harness4j.meter.internal;

import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.stages.WireStages;
import dev.harness4j.meter.internal.gateway.GatewayRunStage;

/** harness-meter's {@link WireStages}, registered for {@link java.util.ServiceLoader}. */
public final class WireStagesProvider implements WireStages {
    /** The provider; {@link java.util.ServiceLoader} makes it. */
    public WireStagesProvider() {}

    @Override
    public RunStage meter(MeterSettings settings) {
        return new MeterRunStage(settings);
    }

    @Override
    public RunStage gateway(GatewayOptions options) {
        return new GatewayRunStage(options);
    }
}
