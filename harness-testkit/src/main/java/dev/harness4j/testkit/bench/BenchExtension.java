package dev.harness4j.testkit.bench;

import dev.harness4j.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension for benches and runs against the scripted model server: injects a {@link
 * BenchContext} (or just its {@link ScriptedModelServer}) into test methods, one per test, and
 * closes it after the test.
 *
 * <pre>{@code
 * @ExtendWith(BenchExtension.class)
 * class MyBenchTest {
 *     @Test
 *     void everyHarnessWritesTheFile(BenchContext bench) throws Exception {
 *         bench.script("scripted-a", Scenario.builder().writeFile("hello.txt", "hi\n").build());
 *         RunRecord r = bench.runner().run(RunSpec.builder("claude-code", ScriptedProvider.NAME)
 *                 .model("scripted-a").prompt("Create hello.txt").baseline(bench.sampleRepo()).build());
 *         RunRecordAssert.assertThat(r).isCompleted().changedExactly("hello.txt").diffContains("+hi");
 *     }
 * }
 * }</pre>
 */
public final class BenchExtension implements ParameterResolver, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(BenchExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext ctx) {
        Class<?> type = p.getParameter().getType();
        return type == BenchContext.class || type == ScriptedModelServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext ctx) {
        BenchContext bench = context(ctx);
        return p.getParameter().getType() == ScriptedModelServer.class ? bench.server() : bench;
    }

    @Override
    public void afterEach(ExtensionContext ctx) {
        BenchContext bench = ctx.getStore(NS).remove(BenchContext.class, BenchContext.class);
        if (bench != null) {
            bench.close();
        }
    }

    private static BenchContext context(ExtensionContext ctx) {
        return ctx.getStore(NS).getOrComputeIfAbsent(BenchContext.class, k -> new BenchContext(), BenchContext.class);
    }
}
