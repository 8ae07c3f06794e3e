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

        /** The same refusal again: of the same request (a retry refused as the first try was), or the same fault. */
        boolean repeats(Refusal r) {
            return qpn == r.qpn && psn == r.psn && why.equals(r.why);
        }
    }

    /** A refusal and how often it came again right after, so that retries do not push other reasons out. */
    private static final class Kept {
        final Refusal first;
        long lastNanos;
        int times = 1;

        Kept(Refusal first) {
            this.first = first;
            this.lastNanos = first.atNanos;
        }

        /** "QP 0x11 refused PSN 5: ... (8 times: the first try and 7 retries, 67 ms apart)". */
        String said() {
            if (times == 1) return first.toString();
            double apart = (lastNanos - first.atNanos) / 1e6 / (times - 1);
            String spacing = apart >= 10 ? String.format("%.0f", apart) : String.format("%.3g", apart);
            // a request's refusal came again with its retries; a fault of the device or a MAD's, just again
            return first.psn == NO_PSN
                    ? String.format("%s (%d times, %s ms apart)", first, times, spacing)
                    : String.format("%s (%d times: the first try and %d %s, %s ms apart)", first, times, times - 1,
                            times == 2 ? "retry" : "retries", spacing);
        }
    }

    private final ArrayDeque<Kept> kept = new ArrayDeque<>();
    private volatile Consumer<Refusal> listener;

    void add(Refusal r) {
        synchronized (this) {
            Kept last = kept.peekLast();
            if (last != null && last.first.repeats(r)) {
                last.times++;
                last.lastNanos = r.atNanos;
            } else {
                if (kept.size() == KEPT) kept.removeFirst();
                kept.addLast(new Kept(r));
            }
        }
        Consumer<Refusal> l = listener;
        if (l == null) return;
        try {
            l.accept(r);
        } catch (RuntimeException e) {
            // a listener's failure must not change what the device does with the packet (the NAK still goes out)
        }
    }

    /** The refusals kept, oldest first, each once (a repeat right after one is counted in {@link #summary}). */
    public synchronized List<Refusal> recent() {
        return kept.stream().map(k -> k.first).toList();
    }

    /**
     * The refusals kept, each said once: a request refused again and again (its first try and the requester's
     * retries) is one line with its count and the time between tries.
     */
    public synchronized List<String> summary() {
        return kept.stream().map(Kept::said).toList();
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
