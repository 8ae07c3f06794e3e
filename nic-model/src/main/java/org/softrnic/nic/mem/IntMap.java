package org.softrnic.nic.mem;

import java.util.function.Consumer;

/** Open-addressing int-to-object map: key lookups on the packet path without boxing. Not thread-safe. */
public final class IntMap<V> {
    private int[] keys;
    private Object[] values;
    private boolean[] used;
    private int size;

    public IntMap() {
        this(16);
    }

    public IntMap(int capacity) {
        int cap = Integer.highestOneBit(Math.max(4, capacity * 2 - 1)) << 1;
        keys = new int[cap];
        values = new Object[cap];
        used = new boolean[cap];
    }

    private static int mix(int k) {
        int h = k * 0x9e3779b9;
        return h ^ (h >>> 16);
    }

    @SuppressWarnings("unchecked")
    public V get(int key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) return (V) values[i];
        }
        return null;
    }

    public boolean containsKey(int key) {
        return get(key) != null;
    }

    public void put(int key, V value) {
        if (value == null) throw new IllegalArgumentException("null value");
        if ((size + 1) * 2 > keys.length) grow();
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i] && keys[i] != key) i = (i + 1) & mask;
        if (!used[i]) size++;
        used[i] = true;
        keys[i] = key;
        values[i] = value;
    }

    @SuppressWarnings("unchecked")
    public V remove(int key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i] && keys[i] != key) i = (i + 1) & mask;
        if (!used[i]) return null;
        V old = (V) values[i];
        used[i] = false;
        values[i] = null;
        size--;
        // re-insert the rest of the cluster so that lookups keep finding them
        for (int j = (i + 1) & mask; used[j]; j = (j + 1) & mask) {
            int k = keys[j];
            Object v = values[j];
            used[j] = false;
            values[j] = null;
            size--;
            put(k, (V) v);
        }
        return old;
    }

    public int size() {
        return size;
    }

    /** Number of slots, for allocation-free iteration with {@link #valueAt}. */
    public int slots() {
        return keys.length;
    }

    /** The value in slot {@code i}, or null when the slot is free. */
    @SuppressWarnings("unchecked")
    public V valueAt(int i) {
        return used[i] ? (V) values[i] : null;
    }

    @SuppressWarnings("unchecked")
    public void forEachValue(Consumer<V> action) {
        for (int i = 0; i < keys.length; i++) if (used[i]) action.accept((V) values[i]);
    }

    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new int[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                @SuppressWarnings("unchecked") V v = (V) oldValues[i];
                put(oldKeys[i], v);
            }
        }
    }
}
