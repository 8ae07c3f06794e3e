package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/**
 * Nothing from the network may crash the device or touch memory outside a registered region. Packets with
 * random opcodes, PSNs, keys, addresses and lengths, all with a valid ICRC so that they reach the
 * transport, are thrown at a connected QP between real traffic.
 */
class HostilePacketsTest {
    @Test
    void randomValidlyFramedPacketsNeverThrowAndNeverWriteOutsideRegions() {
        for (long seed = 1; seed <= 20; seed++) {
            Random r = new Random(seed);
            // B's region is the middle of a larger segment: the bytes just before and after it must stay untouched
            Pair p = Pair.rcWithGuards(seed);
            FrameCodec codec = new FrameCodec();
            int qpn = p.b.qp.qpn();
            for (int i = 0; i < 3000; i++) {
                Opcode op = Opcode.values()[r.nextInt(Opcode.values().length)];
                RocePacket pkt = RandomFrames.packet(r, op, 600);
                pkt = retarget(pkt, r.nextInt(4) == 0 ? r.nextInt(1 << 24) : qpn, r, p);
                var ip = Ipv4.roce((Inet4Address) RandomFrames.v4("192.0.2.1"), RandomFrames.v4("192.0.2.2"),
                        r.nextInt(1 << 16), 0, 0);
                byte[] frame = codec.encode(new RoceFrame(null, ip, Udp.roce(0xc000 | r.nextInt(1 << 14)), pkt, null));
                p.fabric.inject(p.b.nic, frame);
                if (i % 100 == 0) {
                    p.b.postRecv(i, r.nextInt(4096), r.nextInt(2048));
                    SendWr w = p.a.wr(i, SendOpcode.RDMA_WRITE, 0, r.nextInt(3000));
                    w.remoteAddr = p.b.va(r.nextInt(8192));
                    w.rkey = p.b.mr.rkey();
                    if (p.a.qp.state() == org.softrnic.verbs.QpState.RTS) p.a.post(w);
                    p.fabric.run(p.fabric.clock().nanoTime() + 50_000);
                }
            }
            p.run();
            MemorySegment whole = p.bWithGuards;
            for (long j = 0; j < whole.byteSize(); j = j == Pair.GUARD - 1 ? whole.byteSize() - Pair.GUARD : j + 1) {
                assertEquals(Pair.GUARD_BYTE, whole.get(java.lang.foreign.ValueLayout.JAVA_BYTE, j), "seed " + seed + ": guard byte " + j);
            }
            long refused = 0;
            for (var c : List.of(Counter.DROP_UNKNOWN_QP, Counter.DROP_OPCODE_FOR_QP_TYPE, Counter.DROP_QP_STATE,
                    Counter.DROP_BAD_PKEY, Counter.OUT_OF_SEQ_REQUEST, Counter.DUPLICATE_REQUEST, Counter.DROP_GHOST_ACK)) {
                refused += p.b.nic.counters().get(c);
            }
            assertTrue(refused > 1000, "seed " + seed + ": hostile packets were counted as refused: " + refused);
        }
    }

    /** Points the packet at {@code dqpn} with the default P_Key, and sometimes at B's real rkey and addresses. */
    static RocePacket retarget(RocePacket pkt, int dqpn, Random r, Pair p) {
        var b = pkt.bth();
        var bth = new org.softrnic.wire.header.Bth(b.opcode(), b.se(), b.migReq(), b.pad(), 0,
                r.nextInt(8) == 0 ? b.pkey() : 0xffff, false, false, dqpn, b.ackReq(),
                r.nextInt(3) == 0 ? 0x200 + r.nextInt(8) : b.psn());
        var reth = pkt.reth() == null ? null : r.nextBoolean() ? pkt.reth()
                : new org.softrnic.wire.header.Reth(p.b.va(r.nextInt(1 << 20)) - r.nextInt(64), p.b.mr.rkey(),
                        r.nextInt(1 << 21));
        var atomic = pkt.atomicEth() == null ? null : r.nextBoolean() ? pkt.atomicEth()
                : new org.softrnic.wire.header.AtomicEth(p.b.va(r.nextInt(1 << 20)), p.b.mr.rkey(), 1, 0);
        return new RocePacket(bth, pkt.rdeth(), pkt.deth(), pkt.feth(), reth, atomic, pkt.aeth(), pkt.atomicAckEth(),
                pkt.immDt(), pkt.ieth(), pkt.payload(), 0);
    }

}
