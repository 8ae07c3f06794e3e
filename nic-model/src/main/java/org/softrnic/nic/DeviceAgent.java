package org.softrnic.nic;

/**
 * A consumer that lives inside the device, as the kernel's MAD agents live beside a RoCE port: the CM on
 * QP1. The device moves it with itself: after each packet received, and with its timers.
 */
public interface DeviceAgent {
    /** Takes what arrived for it; true when anything did. */
    boolean poll();

    /** Its earliest deadline on the device's clock, Long.MAX_VALUE for none. */
    long nextDeadline();

    void runTimers(long now);
}
