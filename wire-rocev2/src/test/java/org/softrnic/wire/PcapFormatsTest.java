package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.LinkType;
import org.softrnic.wire.pcap.PcapFormatException;
import org.softrnic.wire.pcap.PcapReader;
import org.softrnic.wire.pcap.PcapWriter;

/** The capture formats and link types softrnic reads, built by hand around a real rxe ACK. */
class PcapFormatsTest {
    static final byte[] ETH = RealBytesTest.RXE_ACK;
    static final byte[] IP = Arrays.copyOfRange(ETH, 14, ETH.length);

    static byte[] classic(ByteOrder order, boolean nanos, int linkType, byte[]... frames) {
        ByteBuffer b = ByteBuffer.allocate(24 + Arrays.stream(frames).mapToInt(f -> 16 + f.length).sum()).order(order);
        b.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(65535).putInt(linkType);
        for (byte[] f : frames) b.putInt(100).putInt(nanos ? 123456789 : 123456).putInt(f.length).putInt(f.length).put(f);
        return b.array();
    }

    static byte[] pcapng(ByteOrder order, int linkType, byte[] frame, boolean simple) {
        ByteBuffer b = ByteBuffer.allocate(1024).order(order);
        b.putInt(0x0a0d0d0a).putInt(28).putInt(0x1a2b3c4d).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        // IDB with if_tsresol = 9 (nanoseconds) and end-of-options
        b.putInt(1).putInt(32).putShort((short) linkType).putShort((short) 0).putInt(0)
                .putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3]).putShort((short) 0).putShort((short) 0)
                .putInt(32);
        // a name-resolution block that the reader must skip
        b.putInt(4).putInt(16).putInt(0).putInt(16);
        int padded = (frame.length + 3) & ~3;
        if (simple) {
            b.putInt(3).putInt(16 + padded).putInt(frame.length).put(frame).put(new byte[padded - frame.length]).putInt(16 + padded);
        } else {
            long ts = 1_700_000_000_123_456_789L;
            b.putInt(6).putInt(32 + padded).putInt(0).putInt((int) (ts >>> 32)).putInt((int) ts).putInt(frame.length)
                    .putInt(frame.length).put(frame).put(new byte[padded - frame.length]).putInt(32 + padded);
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    static void assertAckDecodes(List<CapturedFrame> frames) {
        assertEquals(1, frames.size());
        DecodedFrame d = new CaptureDecoder().decode(frames.getFirst());
        assertTrue(d.icrcOk(), d::errorMessage);
        assertEquals(Opcode.RC_ACKNOWLEDGE, d.packet().opcode());
    }

    @Test
    void classicPcapInBothByteOrdersAndResolutions() throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            List<CapturedFrame> us = PcapReader.read(classic(order, false, 1, ETH), "t");
            assertAckDecodes(us);
            assertEquals(100_123_456_000L, us.getFirst().timestampNanos());
            List<CapturedFrame> ns = PcapReader.read(classic(order, true, 1, ETH), "t");
            assertEquals(100_123_456_789L, ns.getFirst().timestampNanos());
        }
    }

    @Test
    void pcapngEnhancedAndSimpleBlocksInBothByteOrders() throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            List<CapturedFrame> epb = PcapReader.read(pcapng(order, 1, ETH, false), "t");
            assertAckDecodes(epb);
            assertEquals(1_700_000_000_123_456_789L, epb.getFirst().timestampNanos());
            assertAckDecodes(PcapReader.read(pcapng(order, 1, ETH, true), "t"));
        }
    }

    @Test
    void rawIpAndLinuxCookedLinkTypes() throws Exception {
        for (LinkType raw : List.of(LinkType.RAW, LinkType.RAW_12, LinkType.RAW_14, LinkType.IPV4)) {
            assertAckDecodes(PcapReader.read(classic(ByteOrder.LITTLE_ENDIAN, false, raw.value, IP), "t"));
        }
        byte[] sll = new byte[16 + IP.length];
        sll[14] = 0x08; // protocol 0x0800 at offset 14
        System.arraycopy(IP, 0, sll, 16, IP.length);
        assertAckDecodes(PcapReader.read(classic(ByteOrder.LITTLE_ENDIAN, false, 113, sll), "t"));
        byte[] sll2 = new byte[20 + IP.length];
        sll2[0] = 0x08; // protocol 0x0800 at offset 0
        System.arraycopy(IP, 0, sll2, 20, IP.length);
        assertAckDecodes(PcapReader.read(classic(ByteOrder.LITTLE_ENDIAN, false, 276, sll2), "t"));
        byte[] arp = sll.clone();
        arp[15] = 0x06;
        assertFalse(new CaptureDecoder().decode(
                PcapReader.read(classic(ByteOrder.LITTLE_ENDIAN, false, 113, arp), "t").getFirst()).roce());
    }

    @Test
    void unknownLinkTypeIsNotRoce() throws Exception {
        CapturedFrame f = PcapReader.read(classic(ByteOrder.LITTLE_ENDIAN, false, 147, ETH), "t").getFirst();
        assertFalse(new CaptureDecoder().decode(f).roce());
    }

    @Test
    void cutShortOrForeignFilesAreTypedErrors() {
        byte[] good = classic(ByteOrder.LITTLE_ENDIAN, false, 1, ETH);
        for (int cut = 0; cut < good.length; cut++) {
            byte[] shortFile = Arrays.copyOf(good, cut);
            if (cut == 24) continue; // a header with no records is a valid, empty capture
            assertThrows(PcapFormatException.class, () -> PcapReader.read(shortFile, "cut"), "cut at " + cut);
        }
        byte[] ng = pcapng(ByteOrder.LITTLE_ENDIAN, 1, ETH, false);
        for (int cut = 1; cut < ng.length; cut++) {
            byte[] shortFile = Arrays.copyOf(ng, cut);
            int c = cut;
            try {
                PcapReader.read(shortFile, "cut");
                // cutting exactly between blocks leaves a valid shorter file
                assertTrue(c == 28 || c == 60 || c == 76, "cut at " + c + " was accepted");
            } catch (PcapFormatException expected) {
                // typed error: good
            }
        }
        assertThrows(PcapFormatException.class, () -> PcapReader.read("GIF89a....".getBytes(), "gif"));
    }

    @Test
    void writerOutputReadsBack() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, LinkType.ETHERNET)) {
            w.write(1_500_000_000_000_001_000L, ETH);
            w.write(1_500_000_000_000_002_000L, ETH);
        }
        List<CapturedFrame> back = PcapReader.read(out.toByteArray(), "w");
        assertEquals(2, back.size());
        assertArrayEquals(ETH, back.get(1).data());
        assertEquals(1_500_000_000_000_002_000L, back.get(1).timestampNanos());
        assertEquals(1, back.get(0).linkTypeValue());
    }
}
