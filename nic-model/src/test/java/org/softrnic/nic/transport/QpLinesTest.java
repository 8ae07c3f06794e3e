package org.softrnic.nic.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.Gid;
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
        RespLine r = new RespLine(t, null);
        RespLine other = new RespLine(t, null);
        assertNull(r.respLastOpcode(), "no packet accepted yet");
        r.respPsn(0xffffff);
        r.respMsn(7);
        r.respAckPsn(5);
        r.respWriteRkey(0xdeadbeef);
        r.respWriteVa(-2L);
        r.respWriteRemaining(0xffff_ffffL); // a RETH's DMA length is 32 bits unsigned
        r.respWriteLength(3);
        r.respOffset(5L << 32); // a receive's buffers may add up to more than 4 GiB
        r.respLastOpcode(Opcode.RC_RDMA_WRITE_FIRST);
        r.respNakSent(true);
        r.respUcDropping(false);
        assertEquals(0xffffff, r.respPsn());
        assertEquals(7, r.respMsn());
        assertEquals(5, r.respAckPsn());
        assertEquals(0xdeadbeef, r.respWriteRkey());
        assertEquals(-2L, r.respWriteVa());
        assertEquals(0xffff_ffffL, r.respWriteRemaining());
        assertEquals(3, r.respWriteLength());
        assertEquals(5L << 32, r.respOffset());
        assertEquals(Opcode.RC_RDMA_WRITE_FIRST, r.respLastOpcode());
        assertTrue(r.respNakSent());
        assertFalse(r.respUcDropping());
        r.respUcDropping(true);
        r.respNakSent(false);
        assertTrue(r.respUcDropping());
        assertFalse(r.respNakSent());
        r.respLastOpcode(Opcode.RC_SEND_FIRST); // value 0: not the "none" marker
        assertEquals(Opcode.RC_SEND_FIRST, r.respLastOpcode());
        r.udpSourcePort(0xc123); // above 0x7fff: read back unsigned
        assertEquals(0xc123, r.udpSourcePort());
        assertFalse(r.hasPeer(), "no path yet");
        r.path(null, Gid.of(java.net.InetAddress.ofLiteral("192.0.2.2")), Gid.of(java.net.InetAddress.ofLiteral("192.0.2.1")));
        assertTrue(r.hasPeer());
        assertTrue(r.ipv4Addresses());
        assertEquals(0xc0000202, r.peerIpv4());
        assertEquals(0xc0000201, r.localIpv4());
        assertTrue(r.respUcDropping(), "the path's flags leave the others alone");
        r.path(null, Gid.of(java.net.InetAddress.ofLiteral("2001:db8::2")), Gid.of(java.net.InetAddress.ofLiteral("2001:db8::1")));
        assertFalse(r.ipv4Addresses());
        assertEquals(0, r.peerIpv4());
        // the second QP's line is untouched by the first's
        assertEquals(0, other.respPsn());
        assertNull(other.respLastOpcode());
        assertEquals(0, other.udpSourcePort());
        assertFalse(other.hasPeer());
    }

    @Test
    void aCursorReadsTheRecordItIsAtAndAFreedSlotLetsGoOfItsReferences() {
        QpLines t = new QpLines();
        ProtectionDomain pd = new ProtectionDomain(1);
        RespLine a = new RespLine(t, pd);
        RespLine b = new RespLine(t, null);
        a.respPsn(11);
        b.respPsn(22);
        RespLine.Cursor cursor = RespLine.cursor(t);
        assertEquals(11, cursor.at(a.slot()).respPsn());
        assertSame(pd, cursor.pd());
        assertEquals(22, cursor.at(b.slot()).respPsn());
        assertNull(cursor.pd());
        cursor.at(a.slot()).respMsn(5); // written through the cursor, seen by the QP's own view
        assertEquals(5, a.respMsn());
        a.releaseLines();
        assertNull(cursor.at(a.slot()).pd(), "a freed slot keeps no PD alive");
    }
}
