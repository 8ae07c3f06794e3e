package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Facts of the opcode table checked against IBTA table 38 and rxe_opcode.c's lengths and offsets. */
class OpcodeTableTest {
    @Test
    void valuesNamesAndTransportsAgree() {
        for (Opcode op : Opcode.values()) {
            assertSame(op, Opcode.of(op.value));
            assertTrue(op.name().startsWith(op.transport().name() + "_") || op == Opcode.CNP, op.name());
            assertEquals(op.transport().base, op.value & 0xe0, op.name());
        }
        assertEquals(25 + 12 + 24 + 2 + 1, Opcode.values().length, "RC 25, UC 12, RD 24, UD 2, CNP");
    }

    @Test
    void reservedValuesAreAbsent() {
        for (int v : new int[] {0x15, 0x18, 0x19, 0x1a, 0x1b, 0x1e, 0x1f, 0x2c, 0x56, 0x60, 0x63, 0x66, 0x80, 0xa0, 0xff}) {
            assertNull(Opcode.of(v), Integer.toHexString(v));
        }
        assertTrue(Opcode.isManufacturerSpecific(0xc0));
        assertFalse(Opcode.isManufacturerSpecific(0xbf));
    }

    @Test
    void headerLengthsMatchRxe() {
        assertEquals(12, Opcode.RC_SEND_MIDDLE.headerLength);
        assertEquals(12 + 16 + 4, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.headerLength);
        assertEquals(12 + 4 + 8, Opcode.RC_ATOMIC_ACKNOWLEDGE.headerLength);
        assertEquals(12 + 28, Opcode.RC_COMPARE_SWAP.headerLength);
        assertEquals(12 + 8 + 4, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.headerLength);
        assertEquals(12 + 4 + 8 + 16 + 4, Opcode.RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE.headerLength);
        assertEquals(12 + 4, Opcode.RC_SEND_LAST_WITH_INVALIDATE.headerLength);
        assertEquals(12 + 16, Opcode.CNP.headerLength);
        // rxe: FLUSH carries FETH then RETH; ATOMIC_WRITE a RETH and an 8-byte payload
        assertEquals(List.of(HeaderKind.FETH, HeaderKind.RETH), Opcode.RC_FLUSH.headers());
        assertEquals(12, Opcode.RC_FLUSH.offsetOf(HeaderKind.FETH));
        assertEquals(16, Opcode.RC_FLUSH.offsetOf(HeaderKind.RETH));
        assertTrue(Opcode.RC_ATOMIC_WRITE.payload && Opcode.RC_ATOMIC_WRITE.hasReth());
        assertEquals(-1, Opcode.RC_SEND_ONLY.offsetOf(HeaderKind.RETH));
        assertEquals(16, Opcode.RD_SEND_ONLY.offsetOf(HeaderKind.DETH));
    }

    @Test
    void classesAndPositions() {
        assertTrue(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE.isAck() && Opcode.RC_RDMA_READ_RESPONSE_MIDDLE.isRead());
        assertFalse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE.hasAeth(), "middle read responses carry no AETH");
        assertTrue(Opcode.RC_FETCH_ADD.isAtomic() && Opcode.RC_FETCH_ADD.isRequest());
        assertTrue(Opcode.RC_ATOMIC_ACKNOWLEDGE.isAtomic() && !Opcode.RC_ATOMIC_ACKNOWLEDGE.isRequest());
        assertTrue(Opcode.UC_RDMA_WRITE_LAST_WITH_IMMEDIATE.consumesRecvWqe());
        assertFalse(Opcode.UC_RDMA_WRITE_LAST.consumesRecvWqe());
        assertTrue(Opcode.RC_SEND_FIRST.isFirst() && Opcode.RC_SEND_FIRST.position.starts());
        assertTrue(Opcode.RC_SEND_ONLY_WITH_INVALIDATE.hasInvalidate() && Opcode.RC_SEND_ONLY_WITH_INVALIDATE.isOnly());
        for (Opcode op : Opcode.values()) {
            assertEquals(op.isRequest(), !op.isAck() && op != Opcode.CNP, op.name());
            assertEquals(op.hasImmediate(), op.name().contains("WITH_IMMEDIATE"), op.name());
            assertEquals(op.hasInvalidate(), op.name().contains("WITH_INVALIDATE"), op.name());
        }
    }
}
