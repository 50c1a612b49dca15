package dev.harness4j.api;

/**
 * A provider could not be resolved: unknown name, no model to use, a missing environment
 * variable, a malformed endpoint. Thrown before any process starts.
 */
public class ProviderNotResolvableException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final String provider;

    public ProviderNotResolvableException(String provider, String message) {
        super(message);
        this.provider = provider;
    }

    public ProviderNotResolvableException(String provider, String message, Throwable cause) {
        super(message, cause);
        this.provider = provider;
    }

    public String provider() {
        return provider;
    }
}
