package org.softrnic.cli.decode;

import static org.softrnic.cli.decode.Unsigned.hex32;
import static org.softrnic.cli.decode.Unsigned.hex64;
import static org.softrnic.cli.decode.Unsigned.u32;
import static org.softrnic.cli.decode.Unsigned.u64;

import java.util.ArrayList;
import java.util.List;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ecn;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.IpHeader;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Ipv6;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.RnrTimer;
import org.softrnic.wire.packet.RocePacket;

/** Turns a decoded frame into named layers of fields, each with its value and one line of meaning. */
public final class FrameLayers {
    private FrameLayers() {}

    public static List<Layer> of(DecodedFrame d) {
        List<Layer> layers = new ArrayList<>();
        if (d.ethernet() != null) layers.add(ethernet(d.ethernet()));
        if (d.ip() != null) layers.add(ip(d.ip()));
        if (d.udp() != null) layers.add(udp(d.udp()));
        RocePacket p = d.packet();
        if (p != null) {
            layers.add(bth(p.bth()));
            if (p.rdeth() != null) layers.add(Layer.of("rdeth",
                    new Field("eecnxt", p.rdeth().eecnxt(), hex24(p.rdeth().eecnxt()), "end-to-end context of the RD channel")));
            if (p.deth() != null) layers.add(Layer.of("deth",
                    new Field("qkey", u32(p.deth().qkey()), hex32(p.deth().qkey()),
                            "Q_Key: must match the receiving UD QP's Q_Key or the datagram is dropped"),
                    new Field("sqpn", p.deth().sqpn(), hex24(p.deth().sqpn()), "source QP number, for the reply's address")));
            if (p.feth() != null) layers.add(Layer.of("feth",
                    new Field("placement_type", p.feth().placementType(), Integer.toString(p.feth().placementType()),
                            "what FLUSH guarantees: 1 global visibility, 2 persistence"),
                    new Field("selectivity_level", p.feth().selectivityLevel(), Integer.toString(p.feth().selectivityLevel()),
                            "what FLUSH covers: 0 the range in the RETH, 1 the whole memory region")));
            if (p.reth() != null) layers.add(Layer.of("reth",
                    new Field("va", u64(p.reth().va()), hex64(p.reth().va()), "remote virtual address the operation targets"),
                    new Field("rkey", u32(p.reth().rkey()), hex32(p.reth().rkey()),
                            "remote key: names the memory region and proves the right to access it"),
                    new Field("dlen", u32(p.reth().dlen()), Integer.toUnsignedString(p.reth().dlen()),
                            "DMA length: bytes in the whole message, not just this packet")));
            if (p.atomicEth() != null) layers.add(Layer.of("atomiceth",
                    new Field("va", u64(p.atomicEth().va()), hex64(p.atomicEth().va()), "remote address of the 8-byte target, 8-byte aligned"),
                    new Field("rkey", u32(p.atomicEth().rkey()), hex32(p.atomicEth().rkey()), "remote key of the target memory region"),
                    new Field("swap_add", u64(p.atomicEth().swapAdd()), hex64(p.atomicEth().swapAdd()),
                            "value to swap in (CMP_SWAP) or to add (FETCH_ADD)"),
                    new Field("compare", u64(p.atomicEth().compare()), hex64(p.atomicEth().compare()),
                            "CMP_SWAP swaps only if the target equals this")));
            if (p.aeth() != null) layers.add(aeth(p.aeth()));
            if (p.atomicAckEth() != null) layers.add(Layer.of("atomicacketh",
                    new Field("orig", u64(p.atomicAckEth().orig()), hex64(p.atomicAckEth().orig()),
                            "the target's value before the atomic ran")));
            if (p.immDt() != null) layers.add(Layer.scalar("immdt", new Field("immdt", u32(p.immDt().value()),
                    hex32(p.immDt().value()), "immediate data, delivered to the receiver in its work completion")));
            if (p.ieth() != null) layers.add(Layer.scalar("ieth", new Field("ieth", u32(p.ieth().rkey()),
                    hex32(p.ieth().rkey()), "R_Key the responder invalidates when the SEND completes")));
            layers.add(Layer.scalar("payload_len", new Field("payload_len", p.payloadLength(),
                    p.payloadLength() + " bytes", "payload bytes in this packet, without the pad")));
            // QP1 carries management datagrams: the CM's REQ, REP, RTU, DREQ ... in a UD SEND
            if (p.deth() != null && p.bth().dqpn() == 1) layers.addAll(MadLayers.of(p.payload()));
        }
        if (d.roce() && p != null) {
            layers.add(Layer.scalar("icrc", new Field("icrc", DecodedFrame.icrcHex(d.icrcFound()),
                    DecodedFrame.icrcHex(d.icrcFound()), "invariant CRC, as its bytes appear on the wire")));
        }
        return layers;
    }

    static Layer ethernet(Ethernet e) {
        List<Field> f = new ArrayList<>();
        f.add(new Field("dst", Ethernet.formatMac(e.dst()), Ethernet.formatMac(e.dst()), "destination MAC address"));
        f.add(new Field("src", Ethernet.formatMac(e.src()), Ethernet.formatMac(e.src()), "source MAC address"));
        if (e.tagged()) {
            f.add(new Field("vlan", e.vlanTci() & 0xfff, Integer.toString(e.vlanTci() & 0xfff), "802.1Q VLAN ID"));
            f.add(new Field("pcp", e.vlanTci() >>> 13, Integer.toString(e.vlanTci() >>> 13), "802.1Q priority (PFC class)"));
        }
        f.add(new Field("type", e.etherType(), String.format("0x%04x", e.etherType()), "EtherType: 0x0800 IPv4, 0x86dd IPv6"));
        return new Layer("eth", f, false);
    }

    static Layer ip(IpHeader ip) {
        List<Field> f = new ArrayList<>();
        f.add(new Field("version", ip.version(), Integer.toString(ip.version()), "IP version; RoCEv2 runs over both"));
        f.add(new Field("src", ip.src().getHostAddress(), ip.src().getHostAddress(), "source address; its GID is ::ffff:" + "a.b.c.d for IPv4"));
        f.add(new Field("dst", ip.dst().getHostAddress(), ip.dst().getHostAddress(), "destination address (the peer's GID)"));
        if (ip instanceof Ipv4 v4) {
            f.add(new Field("id", v4.id(), String.format("0x%04x", v4.id()),
                    "identification: covered by the ICRC, so a sender must know it when it computes the ICRC"));
            f.add(new Field("df", v4.df(), v4.df() ? "1" : "0", "don't fragment: always set, RoCEv2 is never fragmented"));
        } else if (ip instanceof Ipv6 v6) {
            f.add(new Field("flow_label", v6.flowLabel(), String.format("0x%05x", v6.flowLabel()), "flow label, masked out of the ICRC"));
        }
        f.add(new Field("ttl", ip.ttl(), Integer.toString(ip.ttl()), "TTL / hop limit: masked out of the ICRC because routers change it"));
        int tos = ip.dscp() << 2 | ip.ecn();
        f.add(new Field("tos", tos, String.format("0x%02x", tos), "TOS / traffic class: masked out of the ICRC because switches remark it"));
        f.add(new Field("dscp", ip.dscp(), Integer.toString(ip.dscp()), "DSCP: the traffic class that selects a lossless priority"));
        f.add(new Field("ecn", ip.ecn(), Ecn.of(ip.ecn()).name(), "ECN: CE (0b11) from a switch makes the receiver send a CNP"));
        return new Layer("ip", f, false);
    }

    private static Layer udp(Udp u) {
        return Layer.of("udp",
                new Field("sport", u.sport(), Integer.toString(u.sport()),
                        "source port: rxe uses 0xC000 | a hash of the QPNs, for ECMP entropy"),
                new Field("dport", u.dport(), Integer.toString(u.dport()), "destination port: 4791 marks RoCEv2"),
                new Field("len", u.length(), Integer.toString(u.length()), "UDP length: header, BTH through ICRC"),
                new Field("checksum", u.checksum(), String.format("0x%04x", u.checksum()),
                        "UDP checksum: rxe sends 0 (none); the ICRC protects the packet instead"));
    }

    private static Layer bth(Bth b) {
        Opcode op = b.opcode();
        return Layer.of("bth",
                new Field("opcode", op.value, String.format("0x%02x", op.value), OpcodeText.meaning(op)),
                new Field("opcode_name", op.name(), op.name(), "the opcode's name as rxe and ib_pack.h spell it"),
                new Field("se", b.se(), flag(b.se()), "solicited event: wake a receiver waiting for solicited completions"),
                new Field("m", b.migReq(), flag(b.migReq()), "MigReq: path migration state; rxe sends 0"),
                new Field("pad", b.pad(), Integer.toString(b.pad()), "pad count: 0-3 zero bytes that align the payload to 4"),
                new Field("tver", b.tver(), Integer.toString(b.tver()), "transport header version: always 0"),
                new Field("pkey", b.pkey(), String.format("0x%04x", b.pkey()), "partition key: 0xffff is the default partition"),
                new Field("fecn", b.fecn(), flag(b.fecn()), "forward congestion notification (masked out of the ICRC)"),
                new Field("becn", b.becn(), flag(b.becn()), "backward congestion notification (masked out of the ICRC)"),
                new Field("dqpn", b.dqpn(), hex24(b.dqpn()), "destination QP number at the receiver"),
                new Field("ackreq", b.ackReq(), flag(b.ackReq()), "AckReq: the responder must acknowledge this packet"),
                new Field("psn", b.psn(), Integer.toString(b.psn()),
                        "packet sequence number, 24 bits, wraps at 2^24; the responder executes only the expected one"));
    }

    private static Layer aeth(Aeth a) {
        String timer = a.type() == org.softrnic.wire.header.AethType.RNR_NAK
                ? " (wait " + RnrTimer.micros(a.value()) / 1000.0 + " ms)" : "";
        return Layer.of("aeth",
                new Field("syndrome", a.syndrome(), String.format("0x%02x", a.syndrome()), a.describe() + timer + ": " + Aeth.LAYOUT),
                new Field("type", a.type().name(), a.type().name(), "ACK, RNR_NAK, NAK or RESERVED"),
                new Field("msn", a.msn(), Integer.toString(a.msn()),
                        "message sequence number: counts messages the responder has completed"));
    }

    private static String flag(boolean b) {
        return b ? "1" : "0";
    }

    private static String hex24(int v) {
        return String.format("0x%06x", v);
    }
}
