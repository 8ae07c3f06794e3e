package org.softrnic.nic.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * A fixed ring of reusable slots: producers fill {@link #tail()} then {@link #push()}, consumers pop the head.
 * A slot's object is made the first time the ring reaches it. The ring's first {@link #INITIAL_SLOTS} slots are
 * fields of the ring itself; the rest, an array made when the ring first holds more, doubles up to the capacity:
 * a queue that keeps a few requests outstanding reads its slots with the ring, not from an array one load further
 * (with 10 000 QPs, another miss a message), and holds a few WQEs, not max_send_wr of them. A busy ring allocates
 * nothing once every slot it uses exists.
 */
public final class Ring<T> {
    /** Slots a ring starts with, fields of its own. */
    static final int INITIAL_SLOTS = 4;
    private final int capacity;
    private final IntFunction<T> factory;
    /** Slots 0 to 3, and 4 on in {@link #more}. */
    private Object s0, s1, s2, s3;
    private Object[] more;
    private static final Object[] NONE = {};
    /** The slots in use: at most {@link #INITIAL_SLOTS} plus the array's length, up to the capacity. */
    private int length;
    private int head;
    private int count;
    /** Told of the ends after every change, or null. */
    private Watcher<T> watcher;
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

    /**
     * Keeps a copy of the ring's two ends where its owner reads them: a send queue's QP, so that a post reaches the
     * slot it fills, and an ACK the oldest WQE, in one load from the QP, not two.
     */
    public interface Watcher<T> {
        /**
         * The ends moved: {@code head} is {@link #head} (null when empty), {@code tail} the slot the next
         * {@link #tail} returns, or null when the ring has not made it (or is full).
         */
        void endsMoved(T head, T tail);
    }

    public Ring(int capacity, IntFunction<T> factory) {
        this.capacity = Math.max(1, capacity);
        this.factory = factory;
        this.more = NONE;
        this.length = Math.min(this.capacity, INITIAL_SLOTS);
    }

    /** Tells {@code w} of the ends now and after every change. */
    public void watch(Watcher<T> w) {
        watcher = w;
        moved();
    }

    private void moved() {
        if (watcher != null) watcher.endsMoved(head(), peekTail());
    }

    public int capacity() { return capacity; }
    public int size() { return count; }
    public boolean isEmpty() { return count == 0; }
    public boolean isFull() { return count == capacity; }

    /** The free slot the next push makes live; only valid when not full. */
    @SuppressWarnings("unchecked")
    public T tail() {
        if (count == length && count < capacity) grow();
        int i = index(count);
        Object slot = slot(i);
        if (slot == null) {
            slot = factory.apply(i);
            slot(i, slot);
            moved();
        }
        return (T) slot;
    }

    /** The slot {@link #tail} would return, or null if the ring has not made it yet; makes nothing. */
    @SuppressWarnings("unchecked")
    public T peekTail() {
        return count == length ? null : (T) slot(index(count));
    }

    /** Makes the slot {@link #tail} returned live. */
    public void push() {
        if (isFull()) throw new IllegalStateException("ring full");
        if (count == length) throw new IllegalStateException("push without tail");
        count++;
        moved();
    }

    @SuppressWarnings("unchecked")
    public T head() {
        return count == 0 ? null : (T) slot(head);
    }

    /** The i-th live entry counted from the head. */
    @SuppressWarnings("unchecked")
    public T get(int i) {
        if (i < 0 || i >= count) throw new IndexOutOfBoundsException(i);
        return (T) slot(index(i));
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
        head = index(1);
        // An emptied ring starts over at slot 0, so a QP that keeps k requests outstanding touches k slots.
        if (--count == 0) head = 0;
        moved();
    }

    public void clear() {
        RETIRED.setRelease(this, retired + count);
        head = 0;
        count = 0;
        moved();
    }

    /** The slot of the i-th entry from the head (i at most the slots in use): a compare, not a division. */
    private int index(int i) {
        int j = head + i;
        return j >= length ? j - length : j;
    }

    private Object slot(int i) {
        return switch (i) {
            case 0 -> s0;
            case 1 -> s1;
            case 2 -> s2;
            case 3 -> s3;
            default -> more[i - INITIAL_SLOTS];
        };
    }

    private void slot(int i, Object o) {
        switch (i) {
            case 0 -> s0 = o;
            case 1 -> s1 = o;
            case 2 -> s2 = o;
            case 3 -> s3 = o;
            default -> more[i - INITIAL_SLOTS] = o;
        }
    }

    /**
     * Twice the slots, up to the capacity, when every slot in use is live (so made); the entries move to the front
     * in order, from the head.
     */
    private void grow() {
        Object[] all = new Object[length];
        for (int i = 0; i < length; i++) all[i] = slot(index(i)); // the live entries first, from the head
        length = Math.min(capacity, length * 2);
        more = new Object[length - INITIAL_SLOTS];
        for (int i = 0; i < all.length; i++) slot(i, all[i]);
        head = 0;
        moved();
    }
}
