package org.softrnic.emulator.soak;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes both ends agree on: a SEND carries its lane, sequence number and length in its first 16 bytes
 * and a pattern made from them after, so the responder checks every byte without being told them.
 */
final class Traffic {
    static final int QPS = 64;
    /** Per lane on the responder: the WRITE target, then the atomic's word. */
    static final int SLOT = 64 << 10, WRITE_AREA = 48 << 10, ATOMIC = 56 << 10;
    static final int RECV = 4096, RECVS_PER_QP = 8;
    static final int HEADER = 16;

    private Traffic() {
    }

    /**
     * One process polls its CQ and drives its device on one thread (progress inline, as perftest's one thread
     * does), and waits half a second for an ACK (timeout 17) before going back: a soak measures growth, and a
     * process that a busy machine leaves unscheduled for a moment must not end it with IBV_WC_RETRY_EXC_ERR.
     */
    static void patient(org.softrnic.verbs.QpAttr attr) {
        attr.timeout = 17;
    }

    /** One end's device on {@code ip}, at MTU 4096, its socket on the RoCE port, driven by the caller's thread. */
    static org.softrnic.emulator.soft.SoftRnic device(String name, String ip, int rocePort) {
        return org.softrnic.emulator.soft.SoftRnic.open(org.softrnic.emulator.config.SoftRnicConfig.builder().name(name).gid(ip)
                .mtu(4096).udpPort(rocePort).link("udp:" + ip + ":" + rocePort).progress("inline").build());
    }

    static void fillSend(MemorySegment s, long off, int lane, long seq, int length) {
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, off, (long) lane << 32 | length);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, off + 8, seq);
        long x = seed(lane, seq);
        for (int i = HEADER; i < length; i++) s.set(ValueLayout.JAVA_BYTE, off + i, pattern(x, i));
    }

    /** Whether a received SEND is intact: its header's length is what arrived, and every byte is the pattern's. */
    static boolean checkSend(MemorySegment s, long off, int byteLen) {
        if (byteLen < HEADER) return false;
        long head = s.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        int lane = (int) (head >>> 32);
        int length = (int) head;
        if (length != byteLen || lane < 0 || lane >= QPS) return false;
        long x = seed(lane, s.get(ValueLayout.JAVA_LONG_UNALIGNED, off + 8));
        for (int i = HEADER; i < length; i++) if (s.get(ValueLayout.JAVA_BYTE, off + i) != pattern(x, i)) return false;
        return true;
    }

    private static long seed(int lane, long seq) {
        return (lane * 0x9e3779b97f4a7c15L) ^ (seq * 0xbf58476d1ce4e5b9L);
    }

    private static byte pattern(long x, int i) {
        return (byte) ((x >>> ((i & 7) * 8)) + i * 31);
    }
}
