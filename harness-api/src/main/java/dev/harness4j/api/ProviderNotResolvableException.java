package dev.harness4j.api;

/**
 * A provider could not be resolved: unknown name, no model to use, a missing environment
 * variable, a malformed endpoint. Thrown before any process starts.
 */
public class ProviderNotResolvableException extends HarnessException {
    private static final long serialVersionUID = 1L;

    /** The provider name that could not be resolved. */
    private final String provider;

    /**
     * An exception for a provider.
     *
     * @param provider the provider name
     * @param message what is wrong and how to fix it
     */
    public ProviderNotResolvableException(String provider, String message) {
        super(message);
        this.provider = provider;
    }

    /**
     * An exception for a provider, with its cause.
     *
     * @param provider the provider name
     * @param message what is wrong and how to fix it
     * @param cause the failure underneath
     */
    public ProviderNotResolvableException(String provider, String message, Throwable cause) {
        super(message, cause);
        this.provider = provider;
    }

    /**
     * The provider name that could not be resolved.
     *
     * @return the provider name
     */
    public String provider() {
        return provider;
    }
}
