package org.softrnic.wire.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** T12 of ../shared/specs/dcqcn.md: PFC frames byte for byte (802.1Qbb; Wireshark's "CBFC Pause"). */
class PauseFrameTest {
    private static final byte[] MAC = HexFormat.of().parseHex("02005e000001");

    @Test
    void anXoffForPriority3IsTheSpecsFrame() {
        byte[] f = PauseFrame.pfc(3, 0xffff).encode(MAC);
        String expected = "0180c2000001" + "02005e000001" + "8808" + "0101" + "0008"
                + "0000" + "0000" + "0000" + "ffff" + "0000" + "0000" + "0000" + "0000" + "00".repeat(26);
        assertEquals(expected, HexFormat.of().formatHex(f));
        assertEquals(60, f.length, "64 bytes on the wire with the FCS");
        byte[] xon = PauseFrame.pfc(3, 0).encode(MAC);
        assertEquals(0, xon[24] | xon[25], "XON: time[3] = 0");
        assertEquals(0x08, xon[17], "the priority stays enabled: its time, 0, resumes it");
    }

    @Test
    void decodesWhatItEncodesAndRefusesOtherControlFrames() {
        PauseFrame p = new PauseFrame(PauseFrame.OPCODE_PFC, 0x88, new int[] {0, 0, 0, 10, 0, 0, 0, 20});
        assertEquals(p, PauseFrame.decode(p.encode(MAC), 14));
        PauseFrame global = new PauseFrame(PauseFrame.OPCODE_PAUSE, 0, new int[] {100});
        assertEquals(global, PauseFrame.decode(global.encode(MAC), 14));
        byte[] other = PauseFrame.pfc(0, 1).encode(MAC);
        other[15] = 0x02; // 0x0102: not a pause
        assertNull(PauseFrame.decode(other, 14));
        assertNull(PauseFrame.decode(new byte[16], 14), "cut short");
        assertThrows(IllegalArgumentException.class, () -> new PauseFrame(PauseFrame.OPCODE_PFC, 0x100, new int[8]));
        assertArrayEquals(new int[] {0, 0, 0, 0xffff, 0, 0, 0, 0}, PauseFrame.pfc(3, 0xffff).quanta());
    }
}
