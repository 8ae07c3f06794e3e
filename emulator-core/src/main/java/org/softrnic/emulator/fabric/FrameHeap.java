package org.softrnic.emulator.fabric;

import java.util.Arrays;

/** The frames a port holds back until they are due: a binary min-heap that grows and never shrinks. */
final class FrameHeap {
    private Frame[] heap = new Frame[64];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    Frame peek() {
        return size == 0 ? null : heap[0];
    }

    void add(Frame f) {
        if (size == heap.length) heap = Arrays.copyOf(heap, size * 2);
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!f.before(heap[parent])) break;
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = f;
    }

    Frame poll() {
        Frame top = heap[0];
        Frame last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) break;
                if (child + 1 < size && heap[child + 1].before(heap[child])) child++;
                if (!heap[child].before(last)) break;
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = last;
        }
        return top;
    }
}
