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
    /** The PSN of a refusal that no packet carried: a work request's own local check, or a MAD. */
    public static final int NO_PSN = -1;
    /** The QP of a fault that is the device's, not a QP's (its loop or its link failed). */
    public static final int NO_QP = -1;

    /** One refusal: when (the device's clock), the QP and PSN of the request, and why. */
    public record Refusal(long atNanos, int qpn, int psn, String why) {
        @Override
        public String toString() {
            if (qpn == NO_QP) return why;
            return psn == NO_PSN ? String.format("QP 0x%x: %s", qpn, why) : String.format("QP 0x%x refused PSN %d: %s", qpn, psn, why);
        }

        /** The same refusal of the same request: a retry refused as the first try was. */
        boolean repeats(Refusal r) {
            return qpn == r.qpn && psn == r.psn && why.equals(r.why);
        }
    }

    /**
     * The refusals kept, each said once: a request refused again and again (its first try and the requester's
     * retries) is one line with its count and the time between tries.
     */
    public synchronized List<String> summary() {
        List<String> out = new java.util.ArrayList<>();
        Refusal first = null;
        Refusal last = null;
        int times = 0;
        for (Refusal r : kept) {
            if (first != null && first.repeats(r)) {
                times++;
                last = r;
                continue;
            }
            if (first != null) out.add(said(first, last, times));
            first = r;
            last = r;
            times = 1;
        }
        if (first != null) out.add(said(first, last, times));
        return out;
    }

    private static String said(Refusal first, Refusal last, int times) {
        if (times == 1) return first.toString();
        double apart = (last.atNanos - first.atNanos) / 1e6 / (times - 1);
        return String.format("%s (%d times: the first try and %d %s, %s ms apart)", first, times, times - 1,
                times == 2 ? "retry" : "retries", apart >= 10 ? String.format("%.0f", apart) : String.format("%.3g", apart));
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

    /** Records a fault of the device itself: what it could not do, and what that costs the application. */
    public void fault(long atNanos, String why) {
        add(new Refusal(atNanos, NO_QP, NO_PSN, why));
    }

    /** Records a refusal (the engine's). */
    public void refuse(long atNanos, int qpn, int psn, String why) {
        add(new Refusal(atNanos, qpn, psn, why));
    }
}
