package dev.harness4j.core;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import java.util.List;

/** Small adapters for registry tests; the services file in test resources lists some of them. */
final class TestHarnesses {
    private TestHarnesses() {}

    abstract static class Base implements Harness {
        private final String id;
        private final String binary;

        Base(String id, String binary) {
            this.id = id;
            this.binary = binary;
        }

        @Override public String id() { return id; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() {
            return new InstallInfo(binary, List.of("--version"), "install " + binary + " with: apt-get install " + binary);
        }
        @Override public Invocation prepare(HarnessContext c) { throw new UnsupportedOperationException(); }
        @Override public HarnessResult interpret(Execution e) { throw new UnsupportedOperationException(); }
    }

    /** Loaded from services. */
    public static final class Alpha extends Base {
        public Alpha() { super("alpha", "git"); }
    }

    /** Loaded from services; its constructor fails. */
    public static final class Broken extends Base {
        public Broken() {
            super("broken", "x");
            throw new IllegalStateException("cannot start: missing native library");
        }
    }

    /** Loaded from services. */
    public static final class Beta extends Base {
        public Beta() { super("beta", "definitely-not-installed-binary-h4j"); }
    }

    /** Same id as Alpha, added in code. */
    public static final class AlphaTwin extends Base {
        public AlphaTwin() { super("alpha", "git"); }
    }
}
