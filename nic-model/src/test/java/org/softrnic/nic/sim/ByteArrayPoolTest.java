package org.softrnic.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ByteArrayPoolTest {
    @Test
    void handsOutTheSmallestSizeThatHoldsTheLength() {
        ByteArrayPool pool = new ByteArrayPool();
        assertEquals(64, pool.take(0).length);
        assertEquals(64, pool.take(64).length);
        assertEquals(128, pool.take(65).length);
        assertEquals(256, pool.take(256).length);
        assertEquals(512, pool.take(257).length);
        assertEquals(1536, pool.take(1100).length); // a packet at MTU 1024
        assertEquals(4096, pool.take(4096).length);
        assertEquals(4608, pool.take(4097).length); // at MTU 4096
        assertEquals(16384, pool.take(16384).length);
        assertEquals(16385, pool.take(16385).length); // past the largest size: its own array, exactly
    }

    @Test
    void theArrayLastGivenBackComesFirst() {
        ByteArrayPool pool = new ByteArrayPool();
        byte[] a = pool.take(1000);
        byte[] b = pool.take(1000);
        pool.give(a);
        pool.give(b);
        assertSame(b, pool.take(900));
        assertSame(a, pool.take(1024));
        assertNotSame(a, pool.take(1024));
    }

    @Test
    void keepsABoundedNumberAndNothingItDidNotMake() {
        ByteArrayPool pool = new ByteArrayPool();
        for (int i = 0; i < ByteArrayPool.KEPT + 10; i++) pool.give(new byte[256]);
        assertEquals(ByteArrayPool.KEPT, pool.kept());
        pool.give(new byte[300]); // not a size it hands out
        pool.give(new byte[1 << 15]); // larger than it keeps
        assertEquals(ByteArrayPool.KEPT, pool.kept());
    }
}
