package org.softrnic.emulator.perf;

/** Told how far a run has got, a few times a second at most; the CLI draws its progress bar from it. */
@FunctionalInterface
public interface PerfProgress {
    PerfProgress NONE = (done, total, elapsedNanos) -> {};

    void update(long done, long total, long elapsedNanos);

    /** The run has ended, successfully or not. */
    default void finish() {}
}
