/**
 * harness4j's wire metering: the loopback proxy that measures each run's tokens, answering models,
 * errors and rate limits, the wire stops, metered prices, and a gateway's (LiteLLM) per-run keys and
 * spend. It works {@link dev.harness4j.core.stages.MeterStage} and {@link
 * dev.harness4j.core.stages.GatewayStage} through {@link dev.harness4j.core.stages.WireStages};
 * nothing of it is exported.
 */
module dev.harness4j.meter {
    requires transitive dev.harness4j.core;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    provides dev.harness4j.core.stages.WireStages with dev.harness4j.meter.internal.WireStagesProvider;
}
