package org.softrnic.nic.time;

/** Where the model reads time: never the wall clock, so that a run replays exactly under virtual time. */
@FunctionalInterface
public interface Clock {
    long nanoTime();
}
