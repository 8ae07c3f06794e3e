package org.softrnic.emulator.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Faults on every link between the test's soft RNICs, both ways, drawn from the test's seed: the share of
 * packets lost, duplicated, reordered and ECN-marked, and each packet's delay and jitter.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
public @interface Faults {
    double loss() default 0;

    double duplicate() default 0;

    double reorder() default 0;

    /** The share of packets marked Congestion Experienced. */
    double ecnMark() default 0;

    long delayMicros() default 1;

    long jitterMicros() default 0;
}
