package dev.harness4j.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class that runs real harness CLIs (found with {@link Clis#require}) against the
 * scripted model server: JUnit tag {@value #TAG}. Such classes are named {@code *EndToEndTest}
 * in the adapter modules and the testkit. Run only them with {@code mvn verify
 * -Dgroups=real-cli}, or everything else with {@code -DexcludedGroups=real-cli}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Tag(RealCli.TAG)
public @interface RealCli {
    /** The JUnit tag: {@code real-cli}. */
    String TAG = "real-cli";
}
