package org.softrnic.emulator.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test of a class (or one test) a fresh fabric of soft RNICs: its test methods take
 * {@code RdmaContext}, {@code SoftRnic}, {@code SoftFabric} and {@link SoftRnicRun} parameters. Two devices
 * by default, on the virtual-time fabric, seeded per test; on a failure the run's packets are kept and the
 * failure says how to replay it; at the end every verbs object must be closed.
 *
 * <p>{@code -Dsoftrnic.provider=ibverbs -Dsoftrnic.device=rxe0} runs the same tests on a real device: each
 * {@code RdmaContext} parameter is then a context of that device (loopback, as {@code softrnic check} runs).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(SoftRnicExtension.class)
public @interface SoftRnicTest {
    /** How many soft RNICs the fabric has. */
    int devices() default 2;

    /** Their names, in order (default rnic0, rnic1, ...); their GIDs are 10.0.0.1, 10.0.0.2, ... */
    String[] names() default {};

    /** The fabric: virtual time (deterministic from the seed) or threads (each device on its own loop). */
    Fabric fabric() default Fabric.VIRTUAL;

    /** Every port's MTU in bytes. */
    int mtu() default 4096;

    /** The fabrics a test can ask for. */
    enum Fabric { VIRTUAL, THREADED }
}
