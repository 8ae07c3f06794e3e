package org.softrnic.nic;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;

/**
 * Why this device refused a request, in words with the numbers: what an RDMA NIC knows and no RDMA tool
 * tells (the requester sees only IBV_WC_REM_ACCESS_ERR). The last {@link #KEPT} reasons are kept; a listener
 * hears each as it happens. Written on the device's thread, read from any.
 */
public final class Diagnostics {
    public static final int KEPT = 64;

    /** One refusal: when (the device's clock), the QP and PSN of the request, and why. */
    public record Refusal(long atNanos, int qpn, int psn, String why) {
        @Override
        public String toString() {
            return String.format("QP 0x%x refused PSN %d: %s", qpn, psn, why);
        }
    }

    private final ArrayDeque<Refusal> kept = new ArrayDeque<>();
    private volatile Consumer<Refusal> listener;

    void add(Refusal r) {
        synchronized (this) {
            if (kept.size() == KEPT) kept.removeFirst();
            kept.addLast(r);
        }
        Consumer<Refusal> l = listener;
        if (l == null) return;
        try {
            l.accept(r);
        } catch (RuntimeException e) {
            // a listener's failure must not change what the device does with the packet (the NAK still goes out)
        }
    }

    /** The refusals kept, oldest first. */
    public synchronized List<Refusal> recent() {
        return List.copyOf(kept);
    }

    public synchronized void clear() {
        kept.clear();
    }

    /** Hears every refusal from now on, on the device's thread; null stops it. */
    public void listen(Consumer<Refusal> l) {
        listener = l;
    }

    /** Records a refusal (the engine's). */
    public void refuse(long atNanos, int qpn, int psn, String why) {
        add(new Refusal(atNanos, qpn, psn, why));
    }
}
