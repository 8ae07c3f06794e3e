package org.softrnic.cli.decode;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What decode's legend says: each layer name on the screen spelt out, and each abbreviated field with the meaning
 * --explain gives it (the field's own, so there is one wording). Fields whose --explain line depends on the value
 * get a general line here instead.
 */
final class DecodeLegend {
    private static final Map<String, String> LAYERS = Map.ofEntries(
            Map.entry("eth", "Ethernet header: MAC addresses and EtherType"),
            Map.entry("ip", "IPv4 or IPv6 header"),
            Map.entry("udp", "UDP header; destination port 4791 marks RoCEv2"),
            Map.entry("bth", "Base Transport Header (IBTA 9.2), in every RoCE packet: opcode, destination QP, PSN"),
            Map.entry("rdeth", "Reliable Datagram Extended Transport Header (RD)"),
            Map.entry("deth", "Datagram Extended Transport Header (UD): Q_Key and source QP"),
            Map.entry("feth", "FLUSH Extended Transport Header: what a FLUSH makes visible or persistent"),
            Map.entry("reth", "RDMA Extended Transport Header: remote address, rkey and length of an RDMA WRITE or READ"),
            Map.entry("atomiceth", "Atomic Extended Transport Header: remote address, rkey and operands of an atomic"),
            Map.entry("aeth", "ACK Extended Transport Header: ACK, RNR NAK or NAK, and the MSN"),
            Map.entry("atomicacketh", "Atomic ACK Extended Transport Header: the value the atomic found"),
            Map.entry("immdt", "Immediate Data: 4 bytes for the receiver's work completion (imm_data)"),
            Map.entry("ieth", "Invalidate Extended Transport Header: the rkey a SEND_WITH_INV invalidates"),
            Map.entry("payload_len", "payload bytes in the packet, without the pad"),
            Map.entry("icrc", "invariant CRC: CRC-32 over the fields no router changes; a receiver drops a packet whose ICRC is wrong"),
            Map.entry("mad", "management datagram: 256 bytes in a UD SEND to QP1"),
            Map.entry("cm", "a communication manager message (REQ, REP, RTU, DREQ ...): how rdma_cm connects QPs"),
            Map.entry("cma", "rdma_cm's own header, at the start of a REQ's private data"),
            Map.entry("arp", "ARP (RFC 826): asks which MAC address has an IPv4 address; a RoCE NIC asks before it sends to a new peer"),
            Map.entry("tcp", "TCP segment; its [flags]: SYN opens a connection, FIN closes it, RST refuses it, PSH pushes data,"
                    + " ACK acknowledges"),
            Map.entry("icmp", "ICMP message (IPv4)"),
            Map.entry("icmpv6", "ICMPv6 message: IPv6's neighbour discovery (the ARP of IPv6), router and multicast listener messages"),
            Map.entry("oob", "the tools' out-of-band exchange: before any RDMA, ibv_*_pingpong and perftest send each other over"
                    + " TCP (port 18515 by default) their LID (0 on RoCE), QP number, first PSN and GID (the port's IPv6 or"
                    + " IPv4-mapped address), so that each can move its QP to RTR; \"done\" ends it"));
    /** Field keys that are abbreviations worth spelling out. */
    private static final Set<String> ABBREVIATIONS = Set.of("pcp", "df", "ttl", "tos", "dscp", "ecn", "sport", "dport", "se", "m",
            "pad", "tver", "pkey", "fecn", "becn", "dqpn", "ackreq", "psn", "syndrome", "msn", "va", "rkey", "dlen", "qkey", "sqpn",
            "eecnxt", "swap_add", "orig", "tid", "attr_id", "mgmt_class", "sha", "spa", "tha", "tpa", "proto");
    /** Fields whose --explain line is about the value shown. */
    private static final Map<String, String> GENERAL = Map.of(
            "syndrome", "AETH syndrome: " + org.softrnic.wire.header.Aeth.LAYOUT);

    private DecodeLegend() {
    }

    static Legend create() {
        return new Legend(List.of());
    }

    /**
     * Notes a layer the screen showed, and its abbreviated fields when they were shown without their meaning; the
     * exchange's own fields (lid, qpn, psn, gid ...) are spelt out by its layer's line, and psn is the BTH's.
     */
    static void saw(Legend legend, Layer l, boolean fields) {
        String meaning = LAYERS.get(l.name());
        if (meaning != null) legend.saw(l.name(), meaning);
        if (!fields || l.scalar() || l.name().equals("oob")) return;
        for (Field f : l.fields()) {
            if (ABBREVIATIONS.contains(f.key())) legend.saw(f.key(), GENERAL.getOrDefault(f.key(), f.meaning()));
        }
    }
}
