package org.softrnic.emulator.soft;

import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.Nic;
import org.softrnic.nic.qp.QueuePair;

/**
 * A device's duty cycle, whoever runs it ({@link Runner}): {@link #doWork} answers the doorbells, moves the
 * packets its port has, runs the timers that are due, and lets what the turn sent leave together. A port that
 * fails (qemu closed the frame link, a socket error) does not keep the timers from running: a request on its way
 * still times out and completes in error, as on a link that went down. A fault is counted, never thrown at the
 * caller: the device survives it and {@code loop_failures} says so.
 */
final class DeviceAgent {
    /** Packets one turn takes from the port at most. */
    static final int BUDGET = 64;
    final Nic nic;
    /** Null under the virtual-time fabric, which moves the packets itself. */
    final Port port;
    private final Doorbells doorbells = new Doorbells();
    private volatile long refused;
    private volatile long failures;
    private volatile Throwable lastFailure;

    DeviceAgent(Nic nic, Port port) {
        this.nic = nic;
        this.port = port;
    }

    /** Rings a queue's doorbell (any thread); true when the device may need waking. */
    boolean ring(Doorbells.Bell bell) {
        return doorbells.ring(bell);
    }

    boolean doorbellsQuiet() {
        return doorbells.isEmpty();
    }

    /** Makes every published request live (the device's thread); returns the queues answered. */
    int answerDoorbells() {
        return doorbells.answer(nic, this::dropped);
    }

    /** One turn at {@code now} (the wall clock's nanoseconds); returns the work done, 0 when there was none. */
    int doWork(long now) {
        int n = answerDoorbells();
        try {
            n += port.poll(nic, BUDGET);
        } catch (RuntimeException e) {
            failed(e);
        }
        if (nic.nextDeadline() <= now) {
            nic.runTimers();
            n++;
        }
        try {
            port.flush(); // this turn's answers, retransmissions and the posts before them leave together
        } catch (RuntimeException e) {
            failed(e);
        }
        return n;
    }

    /** Requests a destroy or a reset overtook: the post returned, so where a test's failure shows it, say why. */
    private void dropped(QueuePair qp, int requests, String overtaken) {
        refused += requests;
        nic.diagnostics().fault(nic.clock().nanoTime(), requests + " request(s) posted to QP 0x" + Integer.toHexString(qp.qpn())
                + " reached the device after " + overtaken + ", so no completion will come for them");
    }

    void failed(Throwable e) {
        failures++;
        lastFailure = e;
        nic.diagnostics().fault(nic.clock().nanoTime(), "the device's progress failed (loop_failures counts it): " + e);
    }

    /** Requests whose post returned but which the device never took (their QP was destroyed or reset first). */
    long refused() {
        return refused;
    }

    long failures() {
        return failures;
    }

    Throwable lastFailure() {
        return lastFailure;
    }
}
