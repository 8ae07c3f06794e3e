package org.softrnic.emulator.soft;

import java.util.function.Consumer;
import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.Nic;

/**
 * One turn of a device's progress, as both runners take it: the packets its port has, then the timers that are
 * due. A port that fails (qemu closed the frame link, a socket error) does not keep the timers from running: a
 * request on its way still times out and completes in error, as on a link that went down, where the failure
 * alone would leave the application polling for ever.
 */
final class PortStep {
    private PortStep() {
    }

    /** Returns the work done (packets received, plus one if timers ran); a failure of the port goes to {@code fault}. */
    static int run(Nic nic, Port port, int budget, Consumer<RuntimeException> fault) {
        int n = 0;
        try {
            n = port.poll(nic, budget);
        } catch (RuntimeException e) {
            fault.accept(e);
        }
        if (nic.nextDeadline() <= System.nanoTime()) {
            nic.runTimers();
            n++;
        }
        try {
            port.flush(); // what this turn sent (answers, retransmissions, and the posts before it) leaves together
        } catch (RuntimeException e) {
            fault.accept(e);
        }
        return n;
    }
}
