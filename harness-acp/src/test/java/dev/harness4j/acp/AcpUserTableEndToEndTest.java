package dev.harness4j.acp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A user's table ({@code <stateDir>/config/acp-agents.json}) with a row of its own, {@code
 * acp:my-gemini} (the bundled gemini launch under a new id), end to end like a bundled agent.
 */
@RealCli
class AcpUserTableEndToEndTest extends AcpEndToEndCheck {
    private AcpHarness harness;

    @Override
    AcpHarness harness() {
        if (harness == null) {
            try (InputStream in = AcpAgents.class.getResourceAsStream(AcpAgents.RESOURCE)) {
                ObjectNode bundled = (ObjectNode) JSON.readTree(in);
                ObjectNode table = JSON.createObjectNode();
                table.putObject("agents").set("my-gemini", bundled.path("agents").path("gemini"));
                Path state = tmp.resolve("user-state");
                Path file = state.resolve(AcpAgents.USER_RELATIVE_PATH);
                Files.createDirectories(file.getParent());
                JSON.writeValue(file.toFile(), table);
                harness = new AcpHarness(AcpAgents.user(state).get("my-gemini"));
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return harness;
    }

    @Override
    ApiStyle style() {
        return ApiStyle.GEMINI;
    }

    @Override
    int attempts() {
        return 3; // general.maxAttempts in the gemini row's settings
    }
}
