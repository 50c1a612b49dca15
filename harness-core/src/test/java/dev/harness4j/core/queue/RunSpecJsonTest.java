package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import org.junit.jupiter.api.Test;

class RunSpecJsonTest {
    @Test
    void aRunsSandboxNetworkIsWrittenAndReadBackAndAnOlderDocumentWithoutItMeansTheRunnersDefault() {
        RunSpec spec = QueueTesting.fullSpec();
        assertThat(spec.sandboxNetwork()).isEqualTo(SandboxNetwork.HOST);
        ObjectNode json = RunSpecJson.toJson(spec);
        assertThat(json.get("sandbox_network").asText()).isEqualTo("host");
        assertThat(RunSpecJson.fromJson(json)).isEqualTo(spec);

        RunSpec meterOnly = spec.toBuilder().sandboxNetwork(SandboxNetwork.METER_ONLY).build();
        assertThat(RunSpecJson.fromJson(RunSpecJson.toJson(meterOnly)).sandboxNetwork()).isEqualTo(SandboxNetwork.METER_ONLY);

        RunSpec unset = spec.toBuilder().sandboxNetwork(null).build();
        assertThat(RunSpecJson.toJson(unset).get("sandbox_network").isNull()).isTrue();
        ObjectNode older = RunSpecJson.toJson(spec);
        older.remove("sandbox_network");
        assertThat(RunSpecJson.fromJson(older).sandboxNetwork()).isNull();
    }

    @Test
    void aMalformedSandboxNetworkNamesTheField() {
        ObjectNode json = RunSpecJson.toJson(QueueTesting.fullSpec());
        json.put("sandbox_network", "internet");
        assertThatThrownBy(() -> RunSpecJson.fromJson(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sandbox_network").hasMessageContaining("internet");
    }

    @Test
    void aRunsMcpServersAreWrittenAndReadBackAndADocumentWithoutThemHasNone() {
        RunSpec spec = QueueTesting.fullSpec().toBuilder()
                .mcpServer(dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro", "x y")
                        .withEnv("T_URL", "http://127.0.0.1:1").withEnvFrom("T_TOKEN", "MY_TOKEN").withReadOnlyPath(java.nio.file.Path.of("/opt/t/lib"))
                        .withWritablePath(java.nio.file.Path.of("/var/t")))
                .mcpServer(dev.harness4j.api.McpServer.http("web", java.net.URI.create("http://127.0.0.1:9/mcp")))
                .build();
        ObjectNode json = RunSpecJson.toJson(spec);
        assertThat(json.get("mcp_servers")).hasSize(2);
        assertThat(json.get("mcp_servers").get(0).get("env_from").get("T_TOKEN").asText())
                .as("the entry holds the variable's name, the value stays in the worker's environment").isEqualTo("MY_TOKEN");
        assertThat(RunSpecJson.fromJson(json)).isEqualTo(spec);

        assertThat(RunSpecJson.toJson(QueueTesting.fullSpec()).has("mcp_servers")).isFalse();
        assertThat(RunSpecJson.fromJson(RunSpecJson.toJson(QueueTesting.fullSpec())).mcpServers()).isEmpty();

        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("mcp_servers").get(0)).put("name", "bad name");
        assertThatThrownBy(() -> RunSpecJson.fromJson(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bad name'");
    }
}
