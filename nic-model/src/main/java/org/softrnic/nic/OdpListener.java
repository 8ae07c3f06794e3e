package org.softrnic.nic;

/** Hears each page fault of an ODP region as it starts: for ladders and traces. */
@FunctionalInterface
public interface OdpListener {
    /** A fault at {@code atNanos} (the device's clock) for QP {@code qpn}, said in words with the numbers. */
    void fault(long atNanos, int qpn, String what);
}
