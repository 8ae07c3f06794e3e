package org.softrnic.nic.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The WQE ring: FIFO order, its bounds, and that slot objects are made only for the depth actually used. */
class RingTest {
    @Test
    void slotsAreMadeOnFirstUseAndAnEmptiedRingReusesTheFirstOnes() {
        AtomicInteger made = new AtomicInteger();
        Ring<int[]> ring = new Ring<>(128, i -> { made.incrementAndGet(); return new int[1]; });
        assertEquals(0, made.get(), "an idle ring holds no slot objects");
        for (int round = 0; round < 1000; round++) {
            for (int k = 0; k < 3; k++) {
                ring.tail()[0] = round * 3 + k;
                ring.push();
            }
            for (int k = 0; k < 3; k++) {
                assertEquals(round * 3 + k, ring.head()[0]);
                ring.pop();
            }
        }
        assertEquals(3, made.get(), "three outstanding entries touch three slots, however many pass through");
    }

    @Test
    void keepsOrderAcrossTheWrapAndRefusesOverAndUnderflow() {
        Ring<int[]> ring = new Ring<>(4, i -> new int[1]);
        int next = 0;
        int expect = 0;
        for (int step = 0; step < 50; step++) {
            while (!ring.isFull()) { ring.tail()[0] = next++; ring.push(); }
            assertThrows(IllegalStateException.class, ring::push);
            ring.pop();
            expect++;
            assertEquals(expect, ring.head()[0]);
            assertEquals(expect + 2, ring.get(2)[0]);
        }
        int[] same = ring.get(0);
        assertSame(same, ring.head());
        while (!ring.isEmpty()) ring.pop();
        assertThrows(IllegalStateException.class, ring::pop);
        assertThrows(IndexOutOfBoundsException.class, () -> ring.get(0));
    }

    @Test
    void growsWhileWrappedWithoutLosingOrderOrSlots() {
        AtomicInteger made = new AtomicInteger();
        Ring<int[]> ring = new Ring<>(100, i -> { made.incrementAndGet(); return new int[1]; });
        int next = 0;
        int expect = 0;
        // keep three in the ring so that its head walks round the small first array, then fill it to capacity
        for (int k = 0; k < 3; k++) { ring.tail()[0] = next++; ring.push(); }
        for (int step = 0; step < 7; step++) {
            ring.tail()[0] = next++;
            ring.push();
            assertEquals(expect++, ring.head()[0]);
            ring.pop();
        }
        while (!ring.isFull()) { ring.tail()[0] = next++; ring.push(); }
        assertEquals(100, ring.size());
        assertEquals(100, ring.capacity());
        assertThrows(IllegalStateException.class, ring::push);
        for (int i = 0; i < 100; i++) assertEquals(expect + i, ring.get(i)[0], "entry " + i + " after growing");
        // a second pass through the full ring makes no slot object: every one exists and is reused
        int before = made.get();
        for (int step = 0; step < 250; step++) {
            assertEquals(expect++, ring.head()[0]);
            ring.pop();
            ring.tail()[0] = next++;
            ring.push();
        }
        assertEquals(100, before, "one slot object per entry held at once");
        assertEquals(before, made.get());
    }

    @Test
    void itsWatcherAlwaysHoldsTheEndsTheRingReports() {
        Ring<int[]> ring = new Ring<>(37, i -> new int[1]);
        Object[] ends = new Object[2];
        ring.watch((head, tail) -> {
            ends[0] = head;
            ends[1] = tail;
        });
        java.util.Random random = new java.util.Random(7);
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 && !ring.isFull()) {
                ring.tail();
                assertSame(ring.peekTail(), ends[1], "tail made, step " + step);
                ring.push();
            } else if (op < 9 && !ring.isEmpty()) {
                ring.pop();
            } else if (op == 9 && random.nextInt(20) == 0) {
                ring.clear();
            }
            assertSame(ring.head(), ends[0], "head, step " + step);
            assertSame(ring.peekTail(), ends[1], "tail, step " + step);
        }
    }
}
