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
}
