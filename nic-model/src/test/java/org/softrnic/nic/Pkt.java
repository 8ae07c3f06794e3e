package org.softrnic.nic;

import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AtomicEth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Reth;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/**
 * A RoCEv2 packet for model tests, field by named field instead of the records' long constructors:
 * {@code Pkt.of(RC_ACKNOWLEDGE).qpn(0x11).psn(5).aeth(syndrome, msn).from("192.0.2.2").to("192.0.2.1").frame()}.
 * Defaults: P_Key 0xffff, no AckReq, no extended headers, no payload, 192.0.2.1 to 192.0.2.2.
 */
final class Pkt {
    private final Opcode op;
    private int qpn;
    private int psn;
    private int pkey = 0xffff;
    private boolean ackReq;
    private Reth reth;
    private AtomicEth atomic;
    private Aeth aeth;
    private byte[] payload;
    private String src = "192.0.2.1";
    private String dst = "192.0.2.2";
    private int udpPort = Udp.ROCE_PORT;

    private Pkt(Opcode op) {
        this.op = op;
    }

    static Pkt of(Opcode op) {
        return new Pkt(op);
    }

    Pkt qpn(int v) { qpn = v; return this; }
    Pkt psn(int v) { psn = v; return this; }
    Pkt pkey(int v) { pkey = v; return this; }
    Pkt ackReq() { ackReq = true; return this; }
    Pkt reth(long va, int rkey, int length) { reth = new Reth(va, rkey, length); return this; }
    Pkt atomic(long va, int rkey, long swapAdd, long compare) { atomic = new AtomicEth(va, rkey, swapAdd, compare); return this; }
    Pkt aeth(int syndrome, int msn) { aeth = new Aeth(syndrome, msn); return this; }
    Pkt payload(byte[] v) { payload = v; return this; }
    Pkt from(String ip) { src = ip; return this; }
    Pkt to(String ip) { dst = ip; return this; }
    /** The UDP destination port (4791, RoCEv2's, unless set). */
    Pkt udpPort(int port) { udpPort = port; return this; }

    RocePacket packet() {
        int pad = payload == null ? 0 : RocePacket.padFor(payload.length);
        Bth bth = new Bth(op, false, false, pad, 0, pkey, false, false, qpn, ackReq, psn);
        return new RocePacket(bth, null, null, null, reth, atomic, aeth, null, null, null, payload, 0);
    }

    /** The packet in an IPv4/UDP frame (IPv6 when the addresses are) with a valid ICRC, ready to inject. */
    byte[] frame() {
        Udp udp = new Udp(0xc001, udpPort, 0, 0);
        if (src.contains(":")) {
            try {
                var ip = org.softrnic.wire.frame.Ipv6.roce((java.net.Inet6Address) java.net.InetAddress.getByName(src),
                        (java.net.Inet6Address) java.net.InetAddress.getByName(dst), 0, 0);
                return new FrameCodec().encode(new RoceFrame(null, ip, udp, packet(), null));
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException(e);
            }
        }
        var ip = Ipv4.roce(RandomFrames.v4(src), RandomFrames.v4(dst), 7, 0, 0);
        return new FrameCodec().encode(new RoceFrame(null, ip, udp, packet(), null));
    }
}
