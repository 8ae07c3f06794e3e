package org.softrnic.emulator.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * A bounded ring of preallocated slots for many producer threads and one consumer thread, without locks
 * (D. Vyukov's bounded queue): a producer claims a position, fills that slot and publishes it; the consumer
 * takes published slots in position order. A slot's sequence number is its position when free, position + 1
 * once published, and position + capacity after the consumer is done with it.
 */
public final class SlotRing<T> {
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(SlotRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final long[] seq;
    private final int mask;
    @SuppressWarnings("unused") // through TAIL
    private volatile long tail;
    /** Consumer only. */
    private long head;

    public SlotRing(int capacity, IntFunction<T> factory) {
        int n = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        slots = new Object[n];
        seq = new long[n];
        mask = n - 1;
        for (int i = 0; i < n; i++) {
            slots[i] = factory.apply(i);
            seq[i] = i;
        }
    }

    public int capacity() {
        return slots.length;
    }

    /** Claims the next free position, or returns -1 when the ring is full. */
    public long tryClaim() {
        while (true) {
            long pos = tail;
            long s = (long) SEQ.getAcquire(seq, (int) (pos & mask));
            if (s == pos) {
                if (TAIL.compareAndSet(this, pos, pos + 1)) return pos;
            } else if (s < pos) {
                return -1;
            }
            // another producer moved on: read the tail again
        }
    }

    @SuppressWarnings("unchecked")
    public T slot(long pos) {
        return (T) slots[(int) (pos & mask)];
    }

    /**
     * Makes the claimed slot visible to the consumer. A volatile store, so that a producer's next read (of
     * the consumer's "asleep" flag) cannot overtake it and lose a wakeup.
     */
    public void publish(long pos) {
        SEQ.setVolatile(seq, (int) (pos & mask), pos + 1);
    }

    /** The consumer's next published slot, or null when there is none yet. */
    @SuppressWarnings("unchecked")
    public T peek() {
        int i = (int) (head & mask);
        return (long) SEQ.getVolatile(seq, i) == head + 1 ? (T) slots[i] : null;
    }

    /** Gives the slot {@link #peek} returned back to the producers. */
    public void release() {
        SEQ.setRelease(seq, (int) (head & mask), head + slots.length);
        head++;
    }

    /** Positions claimed so far: every slot before it is claimed, and will be published. */
    public long claimed() {
        return tail;
    }

    /** Positions the consumer has taken so far. Consumer only. */
    public long taken() {
        return head;
    }

    /** True when nothing is published (a snapshot; producers may be filling slots). */
    public boolean isEmpty() {
        return peek() == null;
    }
}
