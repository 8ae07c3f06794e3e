package org.softrnic.nic.sim;

import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * A priority queue for elements that mostly arrive in their order, as packets on a fabric without delay or
 * jitter do (each due when sent, sent in turn): an element not before the last one in line joins the end of a
 * plain FIFO, the others a heap, and the smaller of the two heads comes out first. The order is exactly the
 * heap's; with tens of thousands of packets in flight, though, a heap's every add and poll walks a path of
 * elements that have left the cache, and the FIFO touches only its two ends.
 */
final class MostlyOrderedQueue<E extends Comparable<? super E>> {
    private final ArrayDeque<E> inOrder = new ArrayDeque<>();
    private final PriorityQueue<E> rest = new PriorityQueue<>();

    void add(E e) {
        E last = inOrder.peekLast();
        if (last == null || last.compareTo(e) <= 0) inOrder.addLast(e);
        else rest.add(e);
    }

    /** The smallest element, or null. */
    E peek() {
        E a = inOrder.peekFirst();
        E b = rest.peek();
        if (a == null) return b;
        return b == null || a.compareTo(b) <= 0 ? a : b;
    }

    /** Takes the smallest element out; null when empty. */
    E poll() {
        E a = inOrder.peekFirst();
        E b = rest.peek();
        if (a != null && (b == null || a.compareTo(b) <= 0)) return inOrder.pollFirst();
        return rest.poll();
    }

    int size() {
        return inOrder.size() + rest.size();
    }
}
