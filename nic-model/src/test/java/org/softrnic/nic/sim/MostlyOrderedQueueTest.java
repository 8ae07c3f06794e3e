package org.softrnic.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The queue gives exactly a heap's order, whether its elements come in order, nearly so, or at random. */
class MostlyOrderedQueueTest {
    @Test
    void takesElementsOutInTheOrderOfAHeap() {
        for (int seed = 0; seed < 200; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            MostlyOrderedQueue<Long> q = new MostlyOrderedQueue<>();
            PriorityQueue<Long> heap = new PriorityQueue<>();
            long clock = 0;
            // how often an element comes out of order: never, now and then, half the time
            double late = new double[] {0, 0.05, 0.5}[seed % 3];
            for (int step = 0; step < 2000; step++) {
                if (r.nextInt(3) > 0) {
                    clock += r.nextInt(3);
                    long at = r.nextDouble() < late ? clock - r.nextInt(50) : clock;
                    q.add(at);
                    heap.add(at);
                } else {
                    assertEquals(heap.peek(), q.peek(), "seed " + seed + " step " + step);
                    assertEquals(heap.poll(), q.poll(), "seed " + seed + " step " + step);
                }
                assertEquals(heap.size(), q.size());
            }
            while (!heap.isEmpty()) assertEquals(heap.poll(), q.poll(), "seed " + seed);
            assertEquals(null, q.poll());
            assertEquals(null, q.peek());
        }
    }
}
