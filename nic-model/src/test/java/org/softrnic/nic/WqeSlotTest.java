package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * A send queue slot carries one request after another: an atomic's fields, then a WRITE's, then an atomic's
 * again, and a list of three SGEs, then one. Each request runs with its own fields, none left by the slot's last
 * request (a QP that keeps one request outstanding reuses slot 0 every time).
 */
class WqeSlotTest {
    @Test
    void aSlotReusedAcrossOpcodesAndSgeCountsCarriesEachRequestsOwnFields() {
        Pair p = Pair.rc();
        p.b.mem.set(ValueLayout.JAVA_LONG, 512, 40);

        p.a.post(p.a.atomic(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, p.b, 512, 2, 0));
        p.run();
        assertEquals(42, p.b.mem.get(ValueLayout.JAVA_LONG, 512));
        assertEquals(40, p.a.mem.get(ValueLayout.JAVA_LONG, 0), "the original value comes back");

        // three SGEs gathered into one WRITE, from the same slot
        for (int i = 0; i < 96; i++) p.a.mem.set(ValueLayout.JAVA_BYTE, 1024 + i, (byte) i);
        SendWr write = p.a.wr(2, SendOpcode.RDMA_WRITE, 1024 + 64, 32);
        write.numSge = 3;
        write.sgList[1].set(p.a.va(1024 + 32), 32, p.a.mr.lkey());
        write.sgList[2].set(p.a.va(1024), 32, p.a.mr.lkey());
        write.remoteAddr = p.b.va(2048);
        write.rkey = p.b.mr.rkey();
        p.a.post(write);
        p.run();
        for (int i = 0; i < 32; i++) {
            assertEquals((byte) (64 + i), p.b.mem.get(ValueLayout.JAVA_BYTE, 2048 + i));
            assertEquals((byte) (32 + i), p.b.mem.get(ValueLayout.JAVA_BYTE, 2048 + 32 + i));
            assertEquals((byte) i, p.b.mem.get(ValueLayout.JAVA_BYTE, 2048 + 64 + i));
        }

        // one SGE now: only its 8 bytes go, not the last request's other two
        SendWr one = p.a.wr(3, SendOpcode.RDMA_WRITE, 1024, 8);
        one.remoteAddr = p.b.va(4096);
        one.rkey = p.b.mr.rkey();
        p.a.post(one);
        p.run();
        assertEquals(-1, p.b.mem.asSlice(4096, 8).mismatch(p.a.mem.asSlice(1024, 8)));
        assertEquals(0, p.b.mem.get(ValueLayout.JAVA_LONG, 4096 + 8), "nothing past the one SGE's bytes");

        p.a.post(p.a.atomic(4, SendOpcode.ATOMIC_CMP_AND_SWP, 8, p.b, 512, 42, 7));
        p.run();
        assertEquals(7, p.b.mem.get(ValueLayout.JAVA_LONG, 512));
        assertEquals(42, p.a.mem.get(ValueLayout.JAVA_LONG, 8));

        List<WorkCompletion> done = p.a.sendCompletions();
        assertEquals(4, done.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(i + 1, done.get(i).wrId);
            assertEquals(WcStatus.SUCCESS, done.get(i).status);
        }
        assertEquals(96, done.get(1).byteLen);
    }
}
