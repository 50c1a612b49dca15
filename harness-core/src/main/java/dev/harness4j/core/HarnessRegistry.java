package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.UnknownHarnessException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import dev.harness4j.api.HarnessSource;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harness adapters known to one runner: those found with {@link ServiceLoader} plus those
 * added in code. Immutable and thread-safe once built.
 *
 * <pre>{@code
 * HarnessRegistry registry = HarnessRegistry.builder()
 *         .loadServices()              // every adapter jar on the class path
 *         .add(new MyHarness())        // plus adapters made in code
 *         .build();
 * Harness claude = registry.require("claude-code");
 * }</pre>
 *
 * <p>Two adapters with the same id fail the build naming both classes. An adapter jar whose
 * provider fails to load is recorded in {@link #loadFailures()} and logged; it does not hide
 * the others.
 */
public final class HarnessRegistry {
    private static final Logger log = LoggerFactory.getLogger(HarnessRegistry.class);

    private final Map<String, Harness> byId;
    private final List<String> loadFailures;

    private HarnessRegistry(Map<String, Harness> byId, List<String> loadFailures) {
        this.byId = Collections.unmodifiableMap(new LinkedHashMap<>(byId));
        this.loadFailures = List.copyOf(loadFailures);
    }

    /**
     * A registry of every adapter registered in {@code META-INF/services}, loaded through the
     * thread's context class loader (this class's loader when there is none).
     *
     * @return the registry
     */
    public static HarnessRegistry fromServices() {
        return builder().loadServices().build();
    }

    /**
     * {@link #fromServices()} plus the harnesses every {@link HarnessSource} found the same way
     * makes for this state dir (the user's ACP agents table, with harness-acp on the class path):
     * a runner's default registry.
     *
     * @param stateDir the runner's state dir
     * @return the registry
     */
    public static HarnessRegistry fromServices(java.nio.file.Path stateDir) {
        return builder().loadServices().loadSources(stateDir).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The adapter with this id.
     *
     * @throws UnknownHarnessException naming the id and listing the known ones
     */
    public Harness require(String id) {
        Objects.requireNonNull(id, "id");
        Harness h = byId.get(id);
        if (h == null) {
            throw new UnknownHarnessException(id, byId.keySet(), loadFailures);
        }
        return h;
    }

    public Optional<Harness> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The known ids, sorted. */
    public Set<String> ids() {
        return Collections.unmodifiableSet(new TreeSet<>(byId.keySet()));
    }

    public List<Harness> harnesses() {
        return List.copyOf(byId.values());
    }

    /** One line per adapter provider that failed to load: the error, with its cause. */
    public List<String> loadFailures() {
        return loadFailures;
    }

    /** Builds a {@link HarnessRegistry}. */
    public static final class Builder {
        private final List<Harness> harnesses = new ArrayList<>();
        private final List<String> failures = new ArrayList<>();

        private Builder() {}

        /** Adds every adapter registered in {@code META-INF/services} on the context class path. */
        public Builder loadServices() {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            return loadServices(cl != null ? cl : HarnessRegistry.class.getClassLoader());
        }

        /** Adds every adapter registered in {@code META-INF/services} visible to the loader. */
        public Builder loadServices(ClassLoader loader) {
            ServiceLoader<Harness> sl = ServiceLoader.load(Harness.class, loader);
            for (ServiceLoader.Provider<Harness> provider : providers(sl, "(unloadable provider)")) {
                try {
                    harnesses.add(requireCompatible(provider.get()));
                } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                    recordFailure(provider.type().getName(), e);
                }
            }
            return this;
        }

        /**
         * Adds the harnesses of every {@link HarnessSource} registered in {@code META-INF/services}
         * on the context class path, for this state dir. A source that fails, and a harness whose id
         * an adapter added before has, are recorded in {@link HarnessRegistry#loadFailures()}.
         */
        public Builder loadSources(java.nio.file.Path stateDir) {
            Objects.requireNonNull(stateDir, "stateDir");
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            ServiceLoader<HarnessSource> sl = ServiceLoader.load(HarnessSource.class,
                    cl != null ? cl : HarnessRegistry.class.getClassLoader());
            for (ServiceLoader.Provider<HarnessSource> p : providers(sl, "(unloadable harness source)")) {
                try {
                    for (Harness h : p.get().harnesses(stateDir)) {
                        Harness c = requireCompatible(Objects.requireNonNull(h, "harness"));
                        if (harnesses.stream().anyMatch(x -> Objects.equals(x.id(), c.id()))) {
                            failures.add("harness source " + p.type().getName() + " offers '" + c.id()
                                    + "', which an adapter has already; left out (rename it)");
                            log.warn("{}", failures.get(failures.size() - 1));
                        } else {
                            harnesses.add(c);
                        }
                    }
                } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                    failures.add("harness source " + p.type().getName() + " failed: " + e.getMessage());
                    log.warn("{}", failures.get(failures.size() - 1));
                }
            }
            return this;
        }

        /** The loader's providers; one whose class is missing or cannot be instantiated is recorded as {@code what}. */
        private <T> List<ServiceLoader.Provider<T>> providers(ServiceLoader<T> sl, String what) {
            List<ServiceLoader.Provider<T>> out = new ArrayList<>();
            var it = sl.stream().iterator();
            while (true) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    out.add(it.next());
                } catch (ServiceConfigurationError e) {
                    recordFailure(what, e); // go on with the others
                }
            }
            return out;
        }

        private void recordFailure(String what, Throwable e) {
            String msg = "harness adapter " + what + " failed to load: " + e
                    + (e.getCause() != null ? " (caused by " + e.getCause() + ")" : "");
            failures.add(msg);
            log.warn("{}", msg);
        }

        /**
         * Adds an adapter made in code.
         *
         * @throws HarnessException when the adapter was built against a newer harness-api contract
         *     ({@link Harness#apiVersion()}) than this runtime's
         */
        public Builder add(Harness harness) {
            harnesses.add(requireCompatible(Objects.requireNonNull(harness, "harness")));
            return this;
        }

        /** The adapter, when this runtime's harness-api can serve the contract it was built against. */
        private static Harness requireCompatible(Harness h) {
            int v = h.apiVersion();
            if (v > Harness.API_VERSION || v < 0) {
                throw new HarnessException("harness adapter " + h.getClass().getName() + " was built against harness-api"
                        + " contract version " + v + ", but this runtime's harness-api has version " + Harness.API_VERSION
                        + "; upgrade harness4j to a release with contract " + v + " or use a build of the adapter for "
                        + "contract " + Harness.API_VERSION);
            }
            return h;
        }

        /**
         * Builds the registry.
         *
         * @throws IllegalStateException when two adapters share an id (naming both classes) or
         *     an adapter has a blank id
         */
        public HarnessRegistry build() {
            Map<String, Harness> byId = new LinkedHashMap<>();
            for (Harness h : harnesses) {
                String id = h.id();
                if (id == null || id.isBlank()) {
                    throw new IllegalStateException("harness adapter " + h.getClass().getName() + " has a blank id");
                }
                Harness previous = byId.putIfAbsent(id, h);
                if (previous != null) {
                    throw new IllegalStateException("two harness adapters have the id '" + id + "': "
                            + previous.getClass().getName() + " and " + h.getClass().getName()
                            + "; remove one of the jars or register only one of them");
                }
            }
            return new HarnessRegistry(byId, failures);
        }
    }
}
