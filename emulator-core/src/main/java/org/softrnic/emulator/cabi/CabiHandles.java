package org.softrnic.emulator.cabi;

import java.util.Arrays;

/**
 * The Java objects behind the structs softrnic's libibverbs hands out, by the handle written into each struct's
 * {@code handle} field: the hot verbs find their QP or CQ with one array read, no map and no boxing. Handles of
 * destroyed objects are reused. Written under the table's lock, read from any thread through a volatile array.
 */
final class CabiHandles<T> {
    private volatile Object[] slots = new Object[64];
    private int next;

    synchronized int add(T value) {
        Object[] s = slots;
        for (int i = 0; i < s.length; i++) {
            int h = (next + i) % s.length;
            if (s[h] == null) {
                s[h] = value;
                next = h + 1;
                return h;
            }
        }
        Object[] grown = Arrays.copyOf(s, s.length * 2);
        grown[s.length] = value;
        next = s.length + 1;
        slots = grown;
        return s.length;
    }

    @SuppressWarnings("unchecked")
    T get(int handle) {
        Object[] s = slots;
        return handle >= 0 && handle < s.length ? (T) s[handle] : null;
    }

    /** The objects held now. */
    @SuppressWarnings("unchecked")
    java.util.List<T> all() {
        java.util.List<T> out = new java.util.ArrayList<>();
        for (Object o : slots) if (o != null) out.add((T) o);
        return out;
    }

    synchronized void remove(int handle) {
        slots[handle] = null;
    }
}
