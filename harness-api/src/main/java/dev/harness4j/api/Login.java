package dev.harness4j.api;

import java.util.Objects;

/**
 * What a CLI says about its login, from its login probe. Every text field may be {@code null}
 * when the CLI did not say.
 *
 * @param status logged in, not logged in, or unknown (no probe, or it failed)
 * @param authMethod e.g. {@code api_key}, {@code oauth}
 * @param apiProvider e.g. {@code firstParty}, {@code bedrock}
 * @param keySource where the key came from, e.g. {@code ANTHROPIC_API_KEY}
 * @param account the account or organisation
 * @param subscription the subscription type
 */
public record Login(
        Status status, String authMethod, String apiProvider, String keySource, String account, String subscription) {

    /** Whether the CLI is logged in. */
    public enum Status {
        /** The CLI says it is logged in. */
        LOGGED_IN,
        /** The CLI says it is not logged in. */
        NOT_LOGGED_IN,
        /** No probe, or the probe failed or said nothing clear. */
        UNKNOWN
    }

    /**
     * Checks the status.
     *
     * @param status logged in, not logged in, or unknown
     * @param authMethod the authentication method, or {@code null}
     * @param apiProvider the API provider, or {@code null}
     * @param keySource where the key came from, or {@code null}
     * @param account the account or organisation, or {@code null}
     * @param subscription the subscription type, or {@code null}
     */
    public Login {
        Objects.requireNonNull(status, "status");
    }

    /**
     * Nothing is known about the login.
     *
     * @return a login with status {@code UNKNOWN}
     */
    public static Login unknown() {
        return new Login(Status.UNKNOWN, null, null, null, null, null);
    }

    /**
     * The CLI is not logged in.
     *
     * @return a login with status {@code NOT_LOGGED_IN}
     */
    public static Login notLoggedIn() {
        return new Login(Status.NOT_LOGGED_IN, null, null, null, null, null);
    }
}
