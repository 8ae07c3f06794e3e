package org.softrnic.emulator.soft;

import java.util.concurrent.atomic.AtomicReference;
import org.softrnic.nic.Nic;

/**
 * The one thread a virtual-time fabric runs on: the first that uses any of its devices after they were made.
 * Every device of the fabric is stepped by that thread; a call from another would step the same fabric at the
 * same time (nothing in it is thread-safe) or wait in wall time for what virtual time already ran past, so it
 * is refused at once, and the refusal is also kept with the device's refusals, where the test's failure shows it.
 */
final class FabricThread {
    private final AtomicReference<Thread> owner = new AtomicReference<>();

    void check(Nic nic) {
        Thread t = Thread.currentThread();
        Thread o = owner.get();
        if (o == t || (o == null && owner.compareAndSet(null, t))) return;
        o = owner.get();
        String why = "thread '" + t.getName() + "' called a device of the virtual-time fabric after thread '" + o.getName()
                + "' used it; that fabric runs all its devices on one thread, in virtual time: a test whose devices are used"
                + " from threads of its own (an rdma_cm server on a thread, a poller, assertTimeoutPreemptively, @Timeout on a"
                + " separate thread, an executor) needs @SoftRnicTest(fabric = THREADED), or SoftFabric.threaded()";
        nic.diagnostics().fault(nic.clock().nanoTime(), why);
        throw new IllegalStateException(why);
    }
}
