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
                ring.claim()[0] = round * 3 + k;
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
            while (!ring.isFull()) { ring.claim()[0] = next++; ring.push(); }
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
        for (int k = 0; k < 3; k++) { ring.claim()[0] = next++; ring.push(); }
        for (int step = 0; step < 7; step++) {
            ring.claim()[0] = next++;
            ring.push();
            assertEquals(expect++, ring.head()[0]);
            ring.pop();
        }
        while (!ring.isFull()) { ring.claim()[0] = next++; ring.push(); }
        assertEquals(100, ring.size());
        assertEquals(100, ring.capacity());
        assertThrows(IllegalStateException.class, ring::push);
        for (int i = 0; i < 100; i++) assertEquals(expect + i, ring.get(i)[0], "entry " + i + " after growing");
        // a second pass through the full ring makes no slot object: every one exists and is reused
        int before = made.get();
        for (int step = 0; step < 250; step++) {
            assertEquals(expect++, ring.head()[0]);
            ring.pop();
            ring.claim()[0] = next++;
            ring.push();
        }
        assertEquals(100, before, "one slot object per entry held at once");
        assertEquals(128, made.get(), "a full ring cycles through its slots, the capacity rounded up to a power of two, as"
                + " rdma-core's providers round their queues; no more");
    }

    @Test
    void itsWatcherAlwaysHoldsTheHeadTheRingReports() {
        Ring<int[]> ring = new Ring<>(37, i -> new int[1]);
        Object[] head = new Object[1];
        ring.watch(h -> head[0] = h);
        java.util.Random random = new java.util.Random(7);
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 && !ring.full()) {
                ring.claim();
                ring.push();
            } else if (op < 9 && !ring.isEmpty()) {
                ring.pop();
            } else if (op == 9 && random.nextInt(20) == 0) {
                ring.clear();
            }
            assertSame(ring.head(), head[0], "head, step " + step);
        }
    }

    @Test
    void aPublishedRequestIsLiveOnlyOnceTheDeviceAcceptsIt() {
        Ring<int[]> ring = new Ring<>(8, i -> new int[1]);
        ring.claim()[0] = 41;
        ring.publish();
        ring.claim()[0] = 42;
        ring.publish();
        assertEquals(0, ring.size(), "published, not yet accepted");
        assertEquals(2, ring.pending());
        assertEquals(2, ring.accept());
        assertEquals(41, ring.head()[0]);
        assertEquals(42, ring.get(1)[0]);
        ring.clear();
        assertEquals(2, ring.retired(), "a reset retires what was live");
    }

    @Test
    void aProducerAskedToWaitWhileTheDeviceGrowsTheRingKeepsEveryEntryInOrder() {
        Ring<int[]> ring = new Ring<>(64, i -> new int[1]);
        int[] grown = {0};
        ring.growWith(() -> { // as a provider's runner: the device grows it while the producer waits
            grown[0]++;
            ring.grow();
        });
        int next = 0;
        for (int k = 0; k < 3; k++) { ring.claim()[0] = next++; ring.push(); }
        ring.pop();
        ring.pop(); // the head is now mid-way round the first four slots
        for (int k = 0; k < 3; k++) { ring.claim()[0] = next++; ring.publish(); } // every one of the four slots in use
        assertEquals(0, grown[0]);
        assertEquals(4, ring.pending() + ring.size());
        ring.claim()[0] = next++; // no free slot: the grower runs first
        ring.publish();
        assertEquals(1, grown[0]);
        ring.accept();
        for (int i = 0; i < ring.size(); i++) assertEquals(2 + i, ring.get(i)[0], "entry " + i);
    }

    @Test
    @org.junit.jupiter.api.Timeout(120)
    void oneProducerThreadAndTheDeviceThreadPassEveryRequestInOrder() throws Exception {
        Ring<long[]> ring = new Ring<>(16, i -> new long[1]);
        long total = 200_000;
        java.util.concurrent.atomic.AtomicBoolean wantGrow = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        ring.growWith(() -> { // the device grows it while the producer waits, as a provider's runner has it
            wantGrow.set(true);
            while (wantGrow.get()) Thread.onSpinWait();
        });
        Thread producer = Thread.ofPlatform().uncaughtExceptionHandler((t, e) -> failed.set(e)).start(() -> {
            for (long n = 0; n < total; ) {
                if (ring.full()) { Thread.onSpinWait(); continue; }
                ring.claim()[0] = n++;
                ring.publish();
            }
        });
        long expect = 0;
        while (expect < total) {
            if (failed.get() != null) throw new AssertionError("the producer failed", failed.get());
            if (wantGrow.get()) {
                ring.grow();
                wantGrow.set(false);
            }
            ring.accept();
            while (!ring.isEmpty()) {
                assertEquals(expect++, ring.head()[0]);
                ring.pop();
            }
        }
        producer.join();
    }
}
