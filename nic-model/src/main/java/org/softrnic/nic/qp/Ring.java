package org.softrnic.nic.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * A fixed ring of reusable slots: producers fill {@link #tail()} then {@link #push()}, consumers pop the head.
 * A slot's object is made the first time the ring reaches it, and the slot array itself is made at the first
 * post, small, and doubles up to the capacity when the ring first holds that many: a queue never posted to
 * costs no slots, and one that keeps a few requests outstanding a few, not max_send_wr of them (with 10 000
 * QPs the unused slots lay between the hot objects of neighbouring QPs). A busy ring allocates nothing once
 * every slot it uses exists.
 */
public final class Ring<T> {
    /** Slots a ring starts with. */
    static final int INITIAL_SLOTS = 4;
    private final int capacity;
    private Object[] slots;
    private static final Object[] NONE = {};
    private final IntFunction<T> factory;
    private int head;
    private int count;
    /** Entries popped or cleared so far, published for a provider that posts from other threads. */
    private long retired;
    private static final VarHandle RETIRED;

    static {
        try {
            RETIRED = MethodHandles.lookup().findVarHandle(Ring.class, "retired", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public Ring(int capacity, IntFunction<T> factory) {
        this.capacity = Math.max(1, capacity);
        slots = NONE;
        this.factory = factory;
    }

    public int capacity() { return capacity; }
    public int size() { return count; }
    public boolean isEmpty() { return count == 0; }
    public boolean isFull() { return count == capacity; }

    /** The free slot the next push makes live; only valid when not full. */
    @SuppressWarnings("unchecked")
    public T tail() {
        if (count == slots.length && count < capacity) grow();
        int i = (head + count) % slots.length;
        Object slot = slots[i];
        if (slot == null) slots[i] = slot = factory.apply(i);
        return (T) slot;
    }

    /** The slot {@link #tail} would return, or null if the ring has not made it yet; makes nothing. */
    @SuppressWarnings("unchecked")
    public T peekTail() {
        return count == slots.length ? null : (T) slots[(head + count) % slots.length];
    }

    /** Makes the slot {@link #tail} returned live. */
    public void push() {
        if (isFull()) throw new IllegalStateException("ring full");
        if (count == slots.length) throw new IllegalStateException("push without tail");
        count++;
    }

    /**
     * The first slots, or twice as many, up to the capacity; the live entries move to the front in order, the
     * made slots with them.
     */
    private void grow() {
        Object[] bigger = new Object[Math.min(capacity, Math.max(INITIAL_SLOTS, slots.length * 2))];
        for (int i = 0; i < count; i++) bigger[i] = slots[(head + i) % slots.length];
        slots = bigger;
        head = 0;
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

    /**
     * How many entries have left the ring since it was made. Safe to read from any thread: a provider that
     * accepts posts on application threads counts what it posted against this to know the free room.
     */
    public long retired() {
        return (long) RETIRED.getAcquire(this);
    }

    public void pop() {
        if (count == 0) throw new IllegalStateException("ring empty");
        RETIRED.setRelease(this, retired + 1);
        head = (head + 1) % slots.length;
        // An emptied ring starts over at slot 0, so a QP that keeps k requests outstanding touches k slots.
        if (--count == 0) head = 0;
    }

    public void clear() {
        RETIRED.setRelease(this, retired + count);
        head = 0;
        count = 0;
    }
}
