package org.softrnic.nic.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * A work queue as a provider and its device share it: one producer at a time (a posting thread, which the
 * provider serialises per queue as rdma-core's providers lock theirs) fills the WQE {@link #claim} returns and
 * {@link #publish}es it; the device {@link #accept}s what was published when it answers the doorbell, and from
 * then on the entry is live: {@link #head}, {@link #get}, {@link #pop}. Positions only grow; a slot is a position
 * less the {@code base}, modulo the slots in use, and an emptied ring starts over at slot 0, so a queue that keeps k
 * requests outstanding touches k slots.
 *
 * <p>A slot's object is made the first time the ring reaches it. The first {@link #INITIAL_SLOTS} slots are fields
 * of the ring itself; the rest, an array made when the ring first holds more, doubles up to the capacity (rounded up
 * to a power of two). Growing moves entries, so only the device's thread grows a ring, while its producer waits:
 * {@link #claim} asks the ring's {@link #growWith grower}. A busy ring allocates nothing once every slot it uses
 * exists.
 */
public final class Ring<T> {
    /** Slots a ring starts with, fields of its own. */
    static final int INITIAL_SLOTS = 4;
    private static final VarHandle PRODUCED;
    private static final VarHandle HEAD;

    static {
        try {
            PRODUCED = MethodHandles.lookup().findVarHandle(Ring.class, "produced", long.class);
            HEAD = MethodHandles.lookup().findVarHandle(Ring.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    private final int maxSlots;
    private final IntFunction<T> factory;
    /** Slots 0 to 3, and 4 on in {@link #more}. */
    private Object s0, s1, s2, s3;
    private Object[] more;
    private static final Object[] NONE = {};
    /** The slots in use less one: a power of two less one. */
    private int mask;
    /** Positions published by the producer (through PRODUCED). */
    @SuppressWarnings("unused")
    private long produced;
    /** The position slot 0 holds; the producer moves it when the ring is empty, the device when it grows. */
    private long base;
    /** The device's oldest live position: every one before it is retired (through HEAD). */
    @SuppressWarnings("unused")
    private long head;
    /** Live entries: accepted by the device and not yet popped. Device only. */
    private int count;
    /** Told of the head after every change, or null. */
    private Watcher<T> watcher;
    /** Has the device grow the ring while the producer waits; null: {@link #grow} right here. */
    private Runnable grower;

    /** Keeps a copy of the oldest live entry where its owner reads it: an ACK reaches the WQE in one load from the QP. */
    public interface Watcher<T> {
        /** The oldest live entry ({@link #head}) is now {@code head}, null when none is live. */
        void headMoved(T head);
    }

    public Ring(int capacity, IntFunction<T> factory) {
        this.capacity = Math.max(1, capacity);
        this.maxSlots = Integer.highestOneBit(Math.max(1, this.capacity - 1)) << (this.capacity == 1 ? 0 : 1);
        this.factory = factory;
        this.more = NONE;
        this.mask = Math.min(maxSlots, INITIAL_SLOTS) - 1;
    }

    /**
     * How a producer that finds every slot in use holding a request gets more: {@code grower} must run
     * {@link #grow} on the device's thread and return once it has. Without one (the model used alone, its posts
     * made on the device's thread) the ring grows at once.
     */
    public void growWith(Runnable grower) {
        this.grower = grower;
    }

    /** Tells {@code w} of the head now and after every change. */
    public void watch(Watcher<T> w) {
        watcher = w;
        moved();
    }

    private void moved() {
        if (watcher != null) watcher.headMoved(head());
    }

    public int capacity() { return capacity; }

    // ---- the producer's side

    /** True when every place is taken by a request the device has not retired yet. */
    public boolean full() {
        return produced() - retired() >= capacity;
    }

    /**
     * The WQE the next {@link #publish} posts: the ring makes it the first time, and grows first when every slot in
     * use holds a request. Only valid when not {@link #full}.
     */
    @SuppressWarnings("unchecked")
    public T claim() {
        long p = (long) PRODUCED.getOpaque(this);
        long r = retired();
        if (p == r) base = p; // empty: start over at slot 0 (the device reads no slot until the next publish)
        if (p - r > mask) {
            if (grower == null) grow();
            else grower.run();
        }
        int i = (int) (p - base) & mask;
        Object slot = slot(i);
        if (slot == null) {
            slot = factory.apply(i);
            slot(i, slot);
        }
        return (T) slot;
    }

    /** Posts the WQE {@link #claim} returned: the device sees it, and all written into it, at its next accept. */
    public void publish() {
        PRODUCED.setVolatile(this, (long) PRODUCED.getOpaque(this) + 1);
    }

    /** Requests published so far. */
    public long produced() {
        return (long) PRODUCED.getVolatile(this);
    }

    /** How many entries have left the ring since it was made (read by producers for the free room). */
    public long retired() {
        return (long) HEAD.getAcquire(this);
    }

    // ---- the device's side

    /** Makes every published request live; returns how many became so. */
    public int accept() {
        int n = (int) (produced() - head - count);
        if (n > 0) {
            count += n;
            moved();
        }
        return n;
    }

    /** Requests published and not yet retired, live or not: how full the queue is. */
    public int outstanding() {
        return (int) (produced() - head);
    }

    /** Published requests the device has not accepted yet. */
    public int pending() {
        return (int) (produced() - head - count);
    }

    /**
     * Twice the slots, up to the capacity, with the entries from the head moved to the front in order. The
     * device's thread only, while the producer waits (or is the same thread).
     */
    public void grow() {
        int length = mask + 1;
        if (length >= maxSlots) return;
        Object[] all = new Object[length];
        for (int i = 0; i < length; i++) all[i] = slot((int) (head - base + i) & mask); // from the head, in order
        int grown = Math.min(maxSlots, length * 2);
        more = new Object[Math.max(0, grown - INITIAL_SLOTS)];
        mask = grown - 1;
        base = head;
        for (int i = 0; i < length; i++) slot(i, all[i]);
        moved();
    }

    public int size() { return count; }
    public boolean isEmpty() { return count == 0; }
    public boolean isFull() { return count == capacity; }

    @SuppressWarnings("unchecked")
    public T head() {
        return count == 0 ? null : (T) slot((int) (head - base) & mask);
    }

    /** The i-th live entry counted from the head. */
    @SuppressWarnings("unchecked")
    public T get(int i) {
        if (i < 0 || i >= count) throw new IndexOutOfBoundsException(i);
        return (T) slot((int) (head + i - base) & mask);
    }

    /** Retires the head: its slot may be filled again at once, so read it before. */
    public void pop() {
        if (count == 0) throw new IllegalStateException("ring empty");
        HEAD.setRelease(this, head + 1);
        count--;
        moved();
    }

    /** Drops every entry, live or published (a QP's reset). */
    public void clear() {
        HEAD.setRelease(this, produced());
        count = 0;
        moved();
    }

    // ---- on one thread: the model's own posts

    /** Publishes and accepts the WQE {@link #claim} returned. */
    public void push() {
        if (full()) throw new IllegalStateException("ring full");
        publish();
        accept();
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
}
