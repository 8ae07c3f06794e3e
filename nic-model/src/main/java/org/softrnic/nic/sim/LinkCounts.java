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

    /** The counts under the device counter names they fill: link_dropped, link_duplicated, link_reordered, link_ecn_marked. */
    public void putInto(java.util.Map<String, Long> counters) {
        counters.put("link_dropped", dropped);
        counters.put("link_duplicated", duplicated);
        counters.put("link_reordered", reordered);
        counters.put("link_ecn_marked", ecnMarked);
    }
}
