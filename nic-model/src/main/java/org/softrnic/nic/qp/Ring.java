package org.softrnic.nic.qp;

import java.util.function.IntFunction;

/**
 * A fixed ring of reusable slots: producers fill {@link #tail()} then {@link #push()}, consumers pop the head.
 * A slot's object is made the first time the ring reaches it, so an idle QP costs its slot array only, and a
 * busy one allocates nothing once every slot it uses exists.
 */
public final class Ring<T> {
    private final Object[] slots;
    private final IntFunction<T> factory;
    private int head;
    private int count;

    public Ring(int capacity, IntFunction<T> factory) {
        slots = new Object[Math.max(1, capacity)];
        this.factory = factory;
    }

    public int capacity() { return slots.length; }
    public int size() { return count; }
    public boolean isEmpty() { return count == 0; }
    public boolean isFull() { return count == slots.length; }

    /** The free slot the next push makes live; only valid when not full. */
    @SuppressWarnings("unchecked")
    public T tail() {
        int i = (head + count) % slots.length;
        Object slot = slots[i];
        if (slot == null) slots[i] = slot = factory.apply(i);
        return (T) slot;
    }

    public void push() {
        if (isFull()) throw new IllegalStateException("ring full");
        count++;
    }

    @SuppressWarnings("unchecked")
    public T head() {
        return count == 0 ? null : (T) slots[head];
    }

    /** The i-th live entry counted from the head. */
    @SuppressWarnings("unchecked")
    public T get(int i) {
        if (i < 0 || i >= count) throw new IndexOutOfBoundsException(i);
        return (T) slots[(head + i) % slots.length];
    }

    public void pop() {
        if (count == 0) throw new IllegalStateException("ring empty");
        head = (head + 1) % slots.length;
        // An emptied ring starts over at slot 0, so a QP that keeps k requests outstanding touches k slots.
        if (--count == 0) head = 0;
    }

    public void clear() {
        head = 0;
        count = 0;
    }
}
