package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import org.softrnic.nic.Nic;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.wire.PacketBuffer;

/**
 * Two devices joined back to back by a ring of packet buffers handed over without copying, the way a link
 * that owns its buffers works; nothing is allocated per packet.
 */
final class Loopback {
    private final PacketBuffer[] ring;
    private final int[] offsets;
    private final int[] lengths;
    private final int[] to;
    private final PacketBuffer[] free;
    private int freeCount;
    private int head;
    private int count;
    Nic a;
    Nic b;

    Loopback(int capacity) {
        Arena arena = Arena.ofAuto();
        ring = new PacketBuffer[capacity];
        offsets = new int[capacity];
        lengths = new int[capacity];
        to = new int[capacity];
        free = new PacketBuffer[capacity + 2];
        for (int i = 0; i < capacity; i++) free[freeCount++] = PacketBuffer.allocate(arena, PacketSink.BUFFER_BYTES);
    }

    PacketSink sinkFrom(int side) {
        return new PacketSink() {
            @Override
            public boolean transmit(PacketBuffer buffer, int offset, int length) {
                throw new UnsupportedOperationException("the loopback takes buffers over");
            }

            @Override
            public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
                if (count == ring.length || freeCount == 0) throw new IllegalStateException("loopback ring full");
                int i = (head + count) % ring.length;
                ring[i] = buffer;
                offsets[i] = offset;
                lengths[i] = length;
                to[i] = 1 - side;
                count++;
                return free[--freeCount];
            }
        };
    }

    /** A burst taken off the ring, by receiving device. */
    private final PacketBuffer[][] burst = {new PacketBuffer[Nic.BURST], new PacketBuffer[Nic.BURST]};
    private final int[][] burstOffsets = {new int[Nic.BURST], new int[Nic.BURST]};
    private final int[][] burstLengths = {new int[Nic.BURST], new int[Nic.BURST]};
    private final int[] taken = new int[2];

    /** Nanoseconds each device (a, b) spent warming and receiving, since the loopback was made. */
    final long[] receiving = new long[2];
    /** Of {@link #receiving}, the nanoseconds spent warming. */
    final long[] warming = new long[2];

    /**
     * Delivers packets, including the ones delivering makes, until the link is empty; returns how many. Up to
     * {@link Nic#BURST} at a time are taken off the ring, and each device warms its share before receiving it, as a link that
     * reads in batches does.
     */
    int pump() {
        int n = 0;
        while (count > 0) {
            taken[0] = 0;
            taken[1] = 0;
            int m = Math.min(count, Nic.BURST);
            for (int k = 0; k < m; k++) {
                int i = head;
                head = (head + 1) % ring.length;
                int d = to[i];
                burst[d][taken[d]] = ring[i];
                burstOffsets[d][taken[d]] = offsets[i];
                burstLengths[d][taken[d]++] = lengths[i];
                ring[i] = null;
            }
            count -= m;
            for (int d = 0; d < 2; d++) {
                Nic nic = d == 0 ? a : b;
                long t0 = System.nanoTime();
                nic.warm(burst[d], burstOffsets[d], burstLengths[d], 0, taken[d]);
                warming[d] += System.nanoTime() - t0;
                for (int k = 0; k < taken[d]; k++) {
                    nic.receive(burst[d][k], burstOffsets[d][k], burstLengths[d][k]);
                    free[freeCount++] = burst[d][k];
                    burst[d][k] = null;
                }
                receiving[d] += System.nanoTime() - t0;
            }
            n += m;
        }
        return n;
    }

    /**
     * Two devices, a (192.0.2.1) and b (192.0.2.2), at MTU 4096 on one virtual clock, joined by a new loopback;
     * every ICRC stamped and checked, as on a wire.
     */
    static Loopback devices(int capacity) {
        return devices(capacity, LinkProfile.FRAMES);
    }

    /** The same with the link's profile: {@link LinkProfile#IN_PROCESS} computes no ICRC, as the in-process fabric. */
    static Loopback devices(int capacity, LinkProfile profile) {
        Loopback link = new Loopback(capacity);
        VirtualClock clock = new VirtualClock();
        link.a = new Nic(NicConfig.of("a", Gid.parse("192.0.2.1"), 1).withMtu(Mtu.MTU_4096).withLink(profile), clock, link.sinkFrom(0));
        link.b = new Nic(NicConfig.of("b", Gid.parse("192.0.2.2"), 2).withMtu(Mtu.MTU_4096).withLink(profile), clock, link.sinkFrom(1));
        return link;
    }

    /** An unsignaled RDMA WRITE of {@code length} bytes from the start of {@code src} to the start of {@code dst}. */
    static SendWr write(MemoryRegion src, int length, MemoryRegion dst) {
        SendWr w = new SendWr(1);
        w.opcode = SendOpcode.RDMA_WRITE;
        w.numSge = 1;
        w.sgList[0].set(src.iova(), length, src.lkey());
        w.remoteAddr = dst.iova();
        w.rkey = dst.rkey();
        return w;
    }

    /** Takes an RC QP to RTS towards the peer at MTU 4096 with perftest's settings. */
    static void connect(Nic nic, QueuePair qp, String peer, int peerQpn) {
        nic.modifyToRts(qp, QpAttr.rcConnect(Gid.parse(peer), peerQpn, Mtu.MTU_4096));
    }
}
