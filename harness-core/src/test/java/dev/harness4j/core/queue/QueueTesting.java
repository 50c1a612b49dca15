package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** Specs and results for queue tests. */
final class QueueTesting {
    private QueueTesting() {}

    static RunSpec spec(String harness, String provider, String model) {
        return RunSpec.builder(harness, provider).model(model).prompt("add a file")
                .baseline(Path.of("/tmp/baseline")).task("t1").build();
    }

    static RunSpec fullSpec() {
        return RunSpec.builder("aider", "scripted").model("scripted-a").prompt("line 1\n\"quoted\" ünïcode")
                .baseline(Path.of("/tmp/some repo")).ref("main").isolation(dev.harness4j.api.Isolation.WORKTREE)
                .limits(new Limits(Duration.ofSeconds(30), Duration.ofMinutes(20), 7).withMaxTokens(50_000L)
                        .withMaxCostUsd(new java.math.BigDecimal("0.25")).withMaxModelRequests(40))
                .systemPrompt("be brief").task("hello").trial(3).option("edit-format", "whole").option("a", "b")
                .sandboxNetwork(dev.harness4j.api.SandboxNetwork.HOST).build();
    }

    static HarnessResult result(Outcome outcome) {
        return HarnessResult.builder(outcome, "m").reason(outcome == Outcome.COMPLETED ? null : "because").build();
    }

    static HarnessResult rateLimited(Instant retryAt) {
        return HarnessResult.builder(Outcome.RATE_LIMITED, "m").reason("429").retryAt(retryAt).build();
    }
}
