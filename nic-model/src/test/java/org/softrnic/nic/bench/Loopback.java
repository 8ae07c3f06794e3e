package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.qp.Gid;
import org.softrnic.nic.qp.Mtu;
import org.softrnic.nic.qp.QpAttr;
import org.softrnic.nic.qp.QueuePair;
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
            public void transmit(PacketBuffer buffer, int offset, int length) {
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

    /** Delivers packets, including the ones delivering makes, until the link is empty; returns how many. */
    int pump() {
        int n = 0;
        while (count > 0) {
            int i = head;
            head = (head + 1) % ring.length;
            count--;
            PacketBuffer buf = ring[i];
            (to[i] == 0 ? a : b).receive(buf, offsets[i], lengths[i]);
            ring[i] = null;
            free[freeCount++] = buf;
            n++;
        }
        return n;
    }

    /** Takes an RC QP to RTS towards the peer at MTU 4096 with perftest's settings. */
    static void connect(Nic nic, QueuePair qp, String peer, int peerQpn) {
        nic.modifyToRts(qp, QpAttr.rcConnect(Gid.parse(peer), peerQpn, Mtu.MTU_4096));
    }
}
