package org.softrnic.nic.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.wire.Opcode;

/** The QP context lines: zeroed when handed out, apart, kept when the table grows, reused when freed. */
class QpLinesTest {
    @Test
    void linesAreZeroedApartAndKeepTheirContentWhenTheTableGrows() {
        QpLines t = new QpLines();
        int[] slots = new int[QpLines.BLOCK_QPS + 1];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = t.allocate();
            byte[] b = t.block(slots[i]);
            int at = QpLines.offset(slots[i]);
            for (int off = 0; off < QpLines.PER_QP; off++) assertEquals(0, b[at + off]);
            java.util.Arrays.fill(b, at, at + QpLines.PER_QP, (byte) i);
        }
        assertEquals(QpLines.BLOCK_QPS + 1, java.util.Arrays.stream(slots).distinct().count());
        for (int i = 0; i < slots.length; i++) {
            byte[] b = t.block(slots[i]);
            int at = QpLines.offset(slots[i]);
            for (int off = 0; off < QpLines.PER_QP; off++) assertEquals((byte) i, b[at + off], "slot " + slots[i] + " byte " + off);
        }
    }

    @Test
    void aFreedLineComesBackZeroed() {
        QpLines t = new QpLines();
        int a = t.allocate();
        t.block(a)[QpLines.offset(a) + QpLines.PER_QP - 1] = 0x7f;
        t.release(a);
        int again = t.allocate();
        assertEquals(a, again);
        for (int off = 0; off < QpLines.PER_QP; off++) assertEquals(0, t.block(again)[QpLines.offset(again) + off]);
    }

    @Test
    void aResponderLineHoldsEachFieldApart() {
        QpLines t = new QpLines();
        RespLine r = new RespLine(t) {};
        RespLine other = new RespLine(t) {};
        assertNull(r.respLastOpcode(), "no packet accepted yet");
        r.respPsn(0xffffff);
        r.respMsn(7);
        r.respAckPsn(5);
        r.respWriteRkey(0xdeadbeef);
        r.respWriteVa(-2L);
        r.respWriteRemaining(1L << 40);
        r.respWriteLength(3);
        r.respOffset(4);
        r.respLastOpcode(Opcode.RC_RDMA_WRITE_FIRST);
        r.respNakSent(true);
        r.respUcDropping(false);
        assertEquals(0xffffff, r.respPsn());
        assertEquals(7, r.respMsn());
        assertEquals(5, r.respAckPsn());
        assertEquals(0xdeadbeef, r.respWriteRkey());
        assertEquals(-2L, r.respWriteVa());
        assertEquals(1L << 40, r.respWriteRemaining());
        assertEquals(3, r.respWriteLength());
        assertEquals(4, r.respOffset());
        assertEquals(Opcode.RC_RDMA_WRITE_FIRST, r.respLastOpcode());
        assertTrue(r.respNakSent());
        assertFalse(r.respUcDropping());
        r.respUcDropping(true);
        r.respNakSent(false);
        assertTrue(r.respUcDropping());
        assertFalse(r.respNakSent());
        r.respLastOpcode(Opcode.RC_SEND_FIRST); // value 0: not the "none" marker
        assertEquals(Opcode.RC_SEND_FIRST, r.respLastOpcode());
        // the second QP's line is untouched by the first's
        assertEquals(0, other.respPsn());
        assertNull(other.respLastOpcode());
    }
}
