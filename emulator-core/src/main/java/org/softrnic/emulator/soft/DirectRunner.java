package org.softrnic.emulator.soft;

import java.util.function.Supplier;
import org.softrnic.nic.Nic;

/**
 * A runner without a thread of its own: verbs run on the caller's thread and a doorbell is answered at once.
 * Subclasses say how a poll that finds nothing moves the device, and which threads may call.
 */
abstract class DirectRunner implements Runner {
    final Nic nic;
    private final Doorbells doorbells = new Doorbells();

    DirectRunner(Nic nic) {
        this.nic = nic;
    }

    /** Throws when the calling thread may not use the device; by default any may. */
    void checkThread() {
    }

    @Override
    public <T> T call(Supplier<T> verb) {
        checkThread();
        return verb.get();
    }

    @Override
    public void ring(Doorbells.Bell bell) {
        checkThread();
        doorbells.ring(bell);
        doorbells.answer(nic, (qp, n) -> { }); // on this thread a destroyed QP takes no post: checkOpen refused it
    }

    @Override
    public boolean drivesProgress() {
        return true;
    }

    @Override
    public void close() {
    }
}
