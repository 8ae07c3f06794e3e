package org.softrnic.wire.icrc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.PcapReader;

/** The IPv4 identification recovered from the ICRC, on real rxe packets (whose identification counts up). */
class Ipv4IdSolverTest {
    private static final int IP = 14;

    private static List<CapturedFrame> load(String name) throws IOException {
        try (InputStream in = Ipv4IdSolverTest.class.getResourceAsStream("/captures/" + name)) {
            return PcapReader.read(in.readAllBytes(), name);
        }
    }

    /** The frame with its identification set to {@code id}, and the ICRC it carries kept as it was. */
    private static FrameView view(byte[] frame, int id) {
        byte[] copy = frame.clone();
        copy[IP + 4] = (byte) (id >>> 8);
        copy[IP + 5] = (byte) id;
        // the IPv4 checksum follows (the ICRC masks it, so this changes nothing it covers)
        copy[IP + 10] = copy[IP + 11] = 0;
        int sum = 0;
        for (int i = 0; i < 20; i += 2) sum += ((copy[IP + i] & 0xff) << 8) | (copy[IP + i + 1] & 0xff);
        while ((sum >>> 16) != 0) sum = (sum & 0xffff) + (sum >>> 16);
        copy[IP + 10] = (byte) (~sum >>> 8);
        copy[IP + 11] = (byte) ~sum;
        PacketBuffer b = PacketBuffer.wrap(copy);
        FrameView v = new FrameView();
        return v.wrapEthernet(b, 0, copy.length) == null ? v : null;
    }

    private static int id(byte[] frame) {
        return ((frame[IP + 4] & 0xff) << 8) | (frame[IP + 5] & 0xff);
    }

    /** The identification the ICRC implies, -1 for none, -2 when the frame does not parse. */
    private static int solve(byte[] frame) {
        FrameView v = view(frame, 0);
        if (v == null || !v.isRoce()) return -2;
        int total = ((frame[IP + 2] & 0xff) << 8) | (frame[IP + 3] & 0xff);
        return Ipv4IdSolver.identification(v.roce.icrc() ^ v.expectedIcrc(), total);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rc_pingpong.pcap", "ud_pingpong.pcap", "write_bw.pcap", "send_bw.pcap"})
    void everyRxePacketGivesBackItsIdentification(String file) throws IOException {
        int checked = 0;
        int nonZero = 0;
        for (CapturedFrame f : load(file)) {
            byte[] d = f.data();
            if (d.length < IP + 20 || d[12] != 0x08 || d[13] != 0x00 || view(d, id(d)) == null || !view(d, id(d)).isRoce()) continue;
            assertEquals(id(d), solve(d), file + " frame " + f.number());
            checked++;
            if (id(d) != 0) nonZero++;
        }
        assertTrue(checked > 100 && nonZero > 100, file + ": " + checked + " packets, " + nonZero + " with an identification");
    }

    @Test
    void aFlippedBitAnywhereElseIsNoIdentification() throws IOException {
        byte[] d = load("write_bw.pcap").stream().map(CapturedFrame::data)
                .filter(x -> x.length > 1000 && x[12] == 0x08 && x[13] == 0x00).findFirst().orElseThrow();
        SplittableRandom r = new SplittableRandom(7);
        int explained = 0;
        int parsed = 0;
        int tries = 2000;
        for (int i = 0; i < tries; i++) {
            byte[] bad = d.clone();
            // anywhere the ICRC covers and does not mask: past the IP checksum, up to the ICRC itself
            int at = IP + 12 + r.nextInt(bad.length - 4 - IP - 12);
            if (at == IP + 26 || at == IP + 27 || at == IP + 32) continue; // the UDP checksum and BTH byte 4 are masked
            bad[at] ^= (byte) (1 << r.nextInt(8));
            int id = solve(bad);
            if (id != -2) parsed++;
            if (id >= 0) explained++;
        }
        assertTrue(parsed > tries * 9 / 10, parsed + " of " + tries + " parsed");
        // false acceptance is 2^-16 per corrupted packet
        assertTrue(explained <= 1, explained + " of " + tries + " corrupted packets were explained by an identification");
    }

    @Test
    void everyIdentificationAtEveryLengthIsRecovered() {
        SplittableRandom r = new SplittableRandom(11);
        for (int n = 0; n < 3000; n++) {
            int len = 10 + r.nextInt(9000);
            int id = r.nextInt(1 << 16);
            // the difference an identification makes is its raw CRC carried through the bytes after it
            int diff = Ipv4IdSolver.rawCrc(id);
            for (int i = 0; i < len - 10; i++) diff = Ipv4IdSolver.multiply(diff, 0x00800000); // x^8: one zero byte
            assertEquals(id, Ipv4IdSolver.identification(diff, len), "id " + id + " at total length " + len);
        }
    }

    /** The forward direction, as a GSO link stamps segments: the ICRC with identification 0, XOR the difference, is rxe's. */
    @ParameterizedTest
    @ValueSource(strings = {"rc_pingpong.pcap", "write_bw.pcap"})
    void theDifferenceTurnsTheZeroIdentificationsIcrcIntoTheCarriedOne(String file) throws IOException {
        int checked = 0;
        for (CapturedFrame f : load(file)) {
            byte[] frame = f.data();
            FrameView v = view(frame, 0);
            if (v == null || !v.isRoce() || id(frame) == 0) continue;
            int total = ((frame[IP + 2] & 0xff) << 8) | (frame[IP + 3] & 0xff);
            assertEquals(v.roce.icrc(), v.expectedIcrc() ^ Ipv4IdSolver.icrcDifference(id(frame), Ipv4IdSolver.carry(total)));
            checked++;
        }
        assertTrue(checked > 10, "checked " + checked);
    }
}
