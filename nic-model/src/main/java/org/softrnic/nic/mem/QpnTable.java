package org.softrnic.nic.mem;

import java.util.function.Consumer;

/**
 * A device's objects by QPN: an array indexed by QPN below 2^20 (grown by doubling up to the highest QPN in use),
 * a hashed map above, where a device that has handed out a million QPNs goes on. Not thread-safe.
 *
 * <p>Two reasons not to hash the QPNs a device hands out one after another. A young collection copies what an
 * array references in the array's order (G1: backwards, chunk by chunk), so QPs held in QPN order stay in the order
 * they were made, a constant stride apart; served in turn, they are a stream the core's prefetchers run ahead of,
 * where a hashed map's order scattered them. And a lookup costs the same for any QPN a packet names: an open-addressed
 * map keyed by consecutive QPNs without a hash would hold them in one run of slots, which a lookup of a missing QPN
 * that falls inside it walks to its end.
 */
public final class QpnTable<V> {
    /** QPNs below this are indexed directly. */
    public static final int DIRECT = 1 << 20;
    private Object[] direct = new Object[64];
    private final IntMap<V> high = new IntMap<>();
    private int size;

    /** The object of {@code qpn}, or null; any int may be asked for. */
    @SuppressWarnings("unchecked")
    public V get(int qpn) {
        Object[] t = direct;
        if (qpn >= 0 && qpn < t.length) return (V) t[qpn];
        return qpn >= DIRECT ? high.get(qpn) : null;
    }

    public boolean containsKey(int qpn) {
        return get(qpn) != null;
    }

    /** Sets the object of {@code qpn} (not negative), replacing any. */
    public void put(int qpn, V value) {
        if (qpn < 0) throw new IllegalArgumentException("negative QPN " + qpn);
        if (value == null) throw new IllegalArgumentException("null value");
        if (qpn >= DIRECT) {
            if (!high.containsKey(qpn)) size++;
            high.put(qpn, value);
            return;
        }
        if (qpn >= direct.length) direct = java.util.Arrays.copyOf(direct, Integer.highestOneBit(qpn) << 1);
        if (direct[qpn] == null) size++;
        direct[qpn] = value;
    }

    /** Removes the object of {@code qpn}; returns it, or null when there was none. */
    @SuppressWarnings("unchecked")
    public V remove(int qpn) {
        V old = get(qpn);
        if (old == null) return null;
        if (qpn >= DIRECT) high.remove(qpn);
        else direct[qpn] = null;
        size--;
        return old;
    }

    public int size() {
        return size;
    }

    /** Number of slots, for allocation-free iteration in QPN order (the direct ones) with {@link #valueAt}. */
    public int slots() {
        return direct.length + high.slots();
    }

    /** The value in slot {@code i}, or null when the slot is free. */
    @SuppressWarnings("unchecked")
    public V valueAt(int i) {
        Object[] t = direct;
        return i < t.length ? (V) t[i] : high.valueAt(i - t.length);
    }

    public void forEachValue(Consumer<V> action) {
        for (int i = 0, n = slots(); i < n; i++) {
            V v = valueAt(i);
            if (v != null) action.accept(v);
        }
    }
}
