package dev.harness4j.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A provider's {@code gateway} in providers.json, and the runner's {@link GatewayOptions}. */
class GatewayConfigTest {
    @TempDir Path dir;

    private Path file(String gateway) throws Exception {
        return Files.writeString(dir.resolve("providers.json"), "{\"providers\": [{\"name\": \"gw\", \"api_styles\":"
                + " [\"openai\"], \"base_url\": \"http://127.0.0.1:4000\", \"gateway\": " + gateway + "}]}");
    }

    @Test
    void aLitellmGatewayReadsWithItsAdminKeyVariable() throws Exception {
        ProviderConfig c = ProvidersFile.read(file("{\"type\": \"litellm\", \"admin_key_env\": \"LITELLM_MASTER_KEY\"}"))
                .get(0);

        assertThat(c.gateway()).isEqualTo(ProviderConfig.Gateway.litellm("LITELLM_MASTER_KEY"));
    }

    @Test
    void unknownFieldsAMissingVariableAndAKeyInPlaceOfItsNameAreRejectedClearly() throws Exception {
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"type\": \"litellm\", \"admin_key_env\": \"K\","
                + " \"settle\": 3}"))).hasMessageContaining("settle");
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"type\": \"litellm\"}")))
                .hasMessageContaining("needs \"admin_key_env\"");
        String pasted = "sk-1234567890abcdef-not-a-variable";
        assertThatThrownBy(() -> ProvidersFile.read(file("{\"type\": \"litellm\", \"admin_key_env\": \"" + pasted + "\"}")))
                .hasMessageContaining("NAME of an environment variable").hasMessageNotContaining(pasted);
    }

    @Test
    void optionsHaveNamedDefaultsAndRejectNonsense() {
        GatewayOptions d = GatewayOptions.defaults();
        assertThat(d.settleBudget()).isEqualTo(Duration.ofMinutes(3));
        assertThat(d.keyLifetime(null)).isEqualTo(GatewayOptions.DEFAULT_KEY_LIFETIME);
        assertThat(d.keyLifetime(Duration.ofMinutes(20))).isEqualTo(Duration.ofMinutes(40));
        assertThat(d.withPollInterval(Duration.ofSeconds(2)).pollInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> d.withSettleBudget(Duration.ZERO)).hasMessageContaining("settleBudget must be positive");
        assertThatThrownBy(() -> d.withTolerance(new BigDecimal("-0.1"))).hasMessageContaining("tolerance");
    }
}
