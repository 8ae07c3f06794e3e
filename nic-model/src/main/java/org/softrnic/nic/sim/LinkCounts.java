package org.softrnic.nic.sim;

/**
 * What a link's fault model did to one sender's packets: dropped (loss, no device at the address, a full
 * queue, a drop rule), duplicated, reordered (held back past later ones) and ECN-marked. Written by the thread
 * that sends, read from any: a test asserts with it that the faults it asked for happened.
 */
public final class LinkCounts {
    private volatile long dropped;
    private volatile long duplicated;
    private volatile long reordered;
    private volatile long ecnMarked;

    // one writer each (the sending thread), so a plain increment of a volatile is enough
    public void dropped() {
        dropped = dropped + 1;
    }

    public void duplicated() {
        duplicated = duplicated + 1;
    }

    public void reordered() {
        reordered = reordered + 1;
    }

    public void ecnMarked() {
        ecnMarked = ecnMarked + 1;
    }

    public long droppedCount() {
        return dropped;
    }

    public long duplicatedCount() {
        return duplicated;
    }

    public long reorderedCount() {
        return reordered;
    }

    public long ecnMarkedCount() {
        return ecnMarked;
    }

    /** The device counters a fault model fills, in this order. */
    public static final java.util.List<String> NAMES = java.util.List.of("link_dropped", "link_duplicated", "link_reordered",
            "link_ecn_marked");

    /** The counts under the device counter names they fill ({@link #NAMES}). */
    public void putInto(java.util.Map<String, Long> counters) {
        put(counters, dropped, duplicated, reordered, ecnMarked);
    }

    /** Counts of a link that has no LinkCounts of its own (one that only drops) under the same names. */
    public static void put(java.util.Map<String, Long> counters, long dropped, long duplicated, long reordered, long ecnMarked) {
        counters.put(NAMES.get(0), dropped);
        counters.put(NAMES.get(1), duplicated);
        counters.put(NAMES.get(2), reordered);
        counters.put(NAMES.get(3), ecnMarked);
    }
}
