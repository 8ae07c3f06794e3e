package org.softrnic.nic.qp;

import java.util.function.IntFunction;

/** A fixed ring of preallocated slots: producers fill {@link #tail()} then {@link #push()}, consumers pop the head. */
public final class Ring<T> {
    private final Object[] slots;
    private int head;
    private int count;

    public Ring(int capacity, IntFunction<T> factory) {
        slots = new Object[Math.max(1, capacity)];
        for (int i = 0; i < slots.length; i++) slots[i] = factory.apply(i);
    }

    public int capacity() { return slots.length; }
    public int size() { return count; }
    public boolean isEmpty() { return count == 0; }
    public boolean isFull() { return count == slots.length; }

    /** The free slot the next push makes live; only valid when not full. */
    @SuppressWarnings("unchecked")
    public T tail() {
        return (T) slots[(head + count) % slots.length];
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
        count--;
    }

    public void clear() {
        head = 0;
        count = 0;
    }
}
