package org.softrnic.cli.explain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;

/**
 * The RoCEv2 headers (IBTA 9.2-9.3, Annex A17) with their sizes and fields, and the terms that name what they
 * carry: PSN, MSN, QPN, rkey, lkey, Q_Key, P_Key. Sizes come from the wire codec's own constants.
 */
final class WireText {
    /** Topic key (upper case, no underscores) to its lines. */
    private static final Map<String, List<String>> TOPICS = new LinkedHashMap<>();
    private static final List<String> NAMES = new java.util.ArrayList<>();

    static {
        header(new String[] {"BTH"}, "BTH", Opcode.BTH_BYTES, "base transport header, first in every RoCEv2 packet, right after UDP",
                "OpCode (8 bits), SE (1), MigReq (1), PadCnt (2), TVer (4), P_Key (16); FECN (1), BECN (1), reserved (6),"
                        + " DestQP (24); AckReq (1), reserved (7), PSN (24)");
        header(new String[] {"RETH"}, "RETH", HeaderKind.RETH.length,
                "RDMA extended transport header: where in remote memory; in the first or only packet of an RDMA WRITE,"
                        + " in an RDMA READ request, a FLUSH and an ATOMIC WRITE",
                "VA (64 bits), R_Key (32), DMA Length (32)");
        header(new String[] {"AETH"}, "AETH", HeaderKind.AETH.length,
                "ACK extended transport header: in ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE and the first, last and only RDMA READ responses",
                "Syndrome (8 bits: " + AethText.LAYOUT + "), MSN (24)");
        header(new String[] {"ATOMICETH"}, "AtomicETH", HeaderKind.ATOMIC_ETH.length,
                "atomic extended transport header: in COMPARE_SWAP and FETCH_ADD requests",
                "VA (64 bits, 8-byte aligned), R_Key (32), Swap or Add Data (64), Compare Data (64)");
        header(new String[] {"ATOMICACKETH"}, "AtomicAckETH", HeaderKind.ATOMIC_ACK_ETH.length,
                "atomic ACK extended transport header: in ATOMIC_ACKNOWLEDGE, after the AETH",
                "Original Remote Data (64 bits): the value the atomic found before it changed it");
        header(new String[] {"DETH"}, "DETH", HeaderKind.DETH.length,
                "datagram extended transport header: in every UD (and RD) packet",
                "Q_Key (32 bits), reserved (8), SrcQP (24): the sender's QP number");
        header(new String[] {"RDETH"}, "RDETH", HeaderKind.RDETH.length,
                "reliable datagram extended transport header: RD only, which RoCE does not use",
                "reserved (8 bits), EE-Context (24)");
        header(new String[] {"IMMDT", "IMM"}, "ImmDt", HeaderKind.IMMDT.length,
                "immediate data: in the last or only packet of a SEND or RDMA WRITE with immediate; the receiver gets it"
                        + " in ibv_wc.imm_data",
                "Immediate Data (32 bits)");
        header(new String[] {"IETH"}, "IETH", HeaderKind.IETH.length,
                "invalidate extended transport header: in SEND_LAST_WITH_INVALIDATE and SEND_ONLY_WITH_INVALIDATE",
                "R_Key (32 bits): the receiver invalidates this rkey when the message completes");
        header(new String[] {"FETH"}, "FETH", HeaderKind.FETH.length,
                "FLUSH extended transport header (IBTA 1.5 Annex A19): in a FLUSH, before the RETH",
                "reserved (26 bits), selectivity level (2: 0 the RETH's range, 1 the whole memory region), placement"
                        + " type (4: bit 0 global visibility, bit 1 persistence)");
        topic(new String[] {"GRH", "IP", "IPV4", "IPV6", "UDP", "GRH/IP/UDP"}, List.of(
                "GRH, IP and UDP: what comes before the BTH",
                "  what:   InfiniBand and RoCEv1 put a 40-byte GRH (global route header) before the BTH; RoCEv2 (Annex A17)"
                        + " puts an IPv4 (20 bytes) or IPv6 (40 bytes) header and an 8-byte UDP header there instead",
                "  fields: GRH: IPVer (4 bits), TClass (8), FlowLabel (20), PayLen (16), NxtHdr (8), HopLmt (8), SGID (128),"
                        + " DGID (128); RoCEv2's IP header carries the same (the GIDs are the IP addresses); UDP: source port"
                        + " (entropy for ECMP), destination port 4791, length, checksum (0 allowed: the ICRC protects the packet)"));
        topic(new String[] {"ICRC"}, List.of(
                "ICRC (" + Opcode.ICRC_BYTES + " bytes): invariant CRC, last in every RoCEv2 packet (the Ethernet FCS follows it)",
                "  what:   CRC-32 over 8 bytes of 0xff, the IP header with the fields routers change (IPv4 TOS, TTL, header"
                        + " checksum; IPv6 traffic class, flow label, hop limit) set to ones, the UDP header with its checksum"
                        + " set to ones, the BTH with byte 4 (FECN, BECN, reserved) set to ones, and everything after the BTH",
                "  when:   the sender computes it, the receiver checks it and drops the packet on a mismatch"));
        topic(new String[] {"PSN"}, List.of(
                "PSN: packet sequence number, 24 bits in the BTH, wraps at 2^24",
                "  what:   the requester numbers each request packet (an RDMA READ request takes one PSN per response packet it"
                        + " asks for); a response carries the PSN of the request it answers",
                "  when:   set with IBV_QP_SQ_PSN (the first this QP sends) and IBV_QP_RQ_PSN (the first it expects); a gap"
                        + " makes an RC responder NAK with PSN sequence error"));
        topic(new String[] {"MSN"}, List.of(
                "MSN: message sequence number, 24 bits in the AETH",
                "  what:   the responder's count of request messages it has completed, starting at 0, modulo 2^24"));
        topic(new String[] {"CREDITS", "CREDITS=INVALID", "CREDIT"}, List.of(
                "credits: the ACK's credit code, bits 4-0 of its AETH syndrome: end-to-end flow control",
                "  what:   how many more receive WQEs the responder has posted, as a logarithmic code (12 means 64; code 31"
                        + " \"invalid\" means the responder does not count them); ladders print credits=invalid",
                "  when:   rxe and softrnic send code 31 on every ACK (receives come from SRQs or are simply posted; an RNR"
                        + " NAK answers a SEND with none); softrnic explain 0x0c tells a code"));
        topic(new String[] {"QPN", "QP_NUM"}, List.of(
                "QPN: queue pair number, 24 bits",
                "  what:   the BTH's DestQP names the QP that receives the packet; UD packets also carry the sender's in the"
                        + " DETH's SrcQP; QP 0 and QP 1 are reserved for management (SMI, GSI)",
                "  when:   ibv_create_qp assigns it; the peer's goes into IBV_QP_DEST_QPN"));
        topic(new String[] {"RKEY"}, List.of(
                "rkey (R_Key): remote key, 32 bits",
                "  what:   names a memory region or memory window on the responder and grants remote access to it",
                "  when:   the requester sends it in the RETH or AtomicETH (an IETH names one to invalidate); a bad rkey,"
                        + " range or access makes the responder NAK with remote access error (IBV_WC_REM_ACCESS_ERR)"));
        topic(new String[] {"LKEY"}, List.of(
                "lkey (L_Key): local key, 32 bits",
                "  what:   names a local memory region in a work request's scatter/gather entries; it never goes on the wire",
                "  when:   a bad lkey or range completes the work request with IBV_WC_LOC_PROT_ERR"));
        topic(new String[] {"QKEY"}, List.of(
                "Q_Key: queue key, 32 bits in the DETH of every UD packet",
                "  what:   a UD receiver drops a packet whose Q_Key differs from its QP's (IBV_QP_QKEY); when the Q_Key in a"
                        + " UD send work request has its high bit set, the sending QP's own Q_Key goes on the wire instead"));
        topic(new String[] {"PKEY"}, List.of(
                "P_Key: partition key, 16 bits in the BTH",
                "  what:   the receiver drops a packet whose P_Key does not match its QP's partition; the QP's P_Key is the"
                        + " port's P_Key table entry at IBV_QP_PKEY_INDEX; bit 15 is membership (1 full, 0 limited: two limited"
                        + " members cannot talk); 0xffff is the default partition"));
    }

    private WireText() {
    }

    private static void header(String[] keys, String name, int bytes, String what, String fields) {
        topic(keys, List.of(name + " (" + bytes + " bytes): " + what, "  fields: " + fields));
    }

    private static void topic(String[] keys, List<String> lines) {
        for (String k : keys) TOPICS.put(k.replace("_", ""), lines);
        NAMES.add(keys[0]);
    }

    /** The first name of each header and term, as a user types it (shell completion). */
    static List<String> names() {
        return List.copyOf(NAMES);
    }

    /** The lines for a header or term (upper case, '-' already made '_'), or null. */
    static List<String> of(String u) {
        String k = u.replace("_", "");
        if (k.startsWith("IBV")) return null;
        return TOPICS.get(k);
    }

    /** How an opcode's fields line names an extended header. */
    static String headerName(HeaderKind h) {
        return switch (h) {
            case ATOMIC_ETH -> "AtomicETH";
            case ATOMIC_ACK_ETH -> "AtomicAckETH";
            case IMMDT -> "ImmDt";
            case CNP_PAD -> HeaderKind.CNP_PAD.length + " reserved bytes";
            default -> h.name();
        };
    }
}
