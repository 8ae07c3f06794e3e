package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.packet.RocePacket;

/**
 * One packet of a demo as the ladder shows it: when it left, who sent it to whom, what it is, whether the
 * link dropped it or the receiver refused it (and why), and, for a request that went out before (same sender,
 * opcode and PSN), why it went again.
 */
record WireStep(long sentAt, String from, String to, byte[] bytes, RocePacket packet, boolean dropped, Again again, String refused) {
    /** Why a request is on the wire a second time. */
    enum Again {
        RNR("sent again after the RNR wait"),
        GO_BACK_N("sent again (go-back-N)"),
        TIMEOUT("sent again: no ACK came before the timeout"),
        CM_TIMEOUT("sent again: no answer came within the CM's timeout");

        final String words;

        Again(String words) {
            this.words = words;
        }
    }

    /** The traced packets of a run, decoded, with retransmissions marked. */
    static List<WireStep> of(List<SimFabric.Packet> trace, String[] names) {
        FrameCodec codec = new FrameCodec();
        Marker marker = new Marker();
        List<WireStep> steps = new ArrayList<>();
        for (SimFabric.Packet p : trace) {
            if (p.duplicate()) continue; // the link's own copy of a packet already shown
            RocePacket rp = codec.decodeIp(p.bytes(), 0).packet();
            steps.add(marker.step(p.sentAt(), names[p.from()], names[1 - p.from()], p.bytes(), rp, p.dropped(), null));
        }
        return steps;
    }

    /**
     * The RoCE packets of a capture between its first two hosts (named by address), in order; everything
     * else (ARP, TCP, other hosts) left out. Nothing in a capture says a packet was lost, but one whose ICRC
     * does not verify, or whose RoCE headers do not parse, is marked: its receiver drops it.
     */
    static List<WireStep> ofCapture(List<org.softrnic.wire.pcap.CapturedFrame> frames) {
        return ofCapture(frames, org.softrnic.cli.decode.CaptureFilter.ALL);
    }

    /**
     * The packets {@code filter} keeps, between the two hosts of the first one it keeps. Repeats are told from the
     * whole capture between those hosts, so that a packet sent again is marked so even when the filter left out its
     * first sending.
     */
    static List<WireStep> ofCapture(List<org.softrnic.wire.pcap.CapturedFrame> frames, org.softrnic.cli.decode.CaptureFilter filter) {
        org.softrnic.wire.pcap.CaptureDecoder decoder = new org.softrnic.wire.pcap.CaptureDecoder();
        List<DecodedFrame> decoded = new ArrayList<>(frames.size());
        String a = null;
        String b = null;
        for (org.softrnic.wire.pcap.CapturedFrame f : frames) {
            DecodedFrame d = decoder.decode(f);
            decoded.add(d);
            if (a == null && d.ip() != null && d.roce() && filter.keeps(f.number(), d)) {
                a = d.ip().src().getHostAddress();
                b = d.ip().dst().getHostAddress();
            }
        }
        Marker marker = new Marker();
        List<WireStep> steps = new ArrayList<>();
        for (int i = 0; i < frames.size() && a != null; i++) {
            org.softrnic.wire.pcap.CapturedFrame f = frames.get(i);
            DecodedFrame d = decoded.get(i);
            if (d.ip() == null || !d.roce()) continue;
            String from = d.ip().src().getHostAddress();
            String to = d.ip().dst().getHostAddress();
            if (!(from.equals(a) && to.equals(b)) && !(from.equals(b) && to.equals(a))) continue;
            byte[] ip = org.softrnic.wire.pcap.CaptureDecoder.ipPacket(f, d);
            if (ip == null) continue;
            // a frame the snaplen cut is drawn from its headers: what the receiver made of it is not known
            String refused = d.error() == org.softrnic.wire.ParseError.CAPTURE_CUT ? null
                    : d.packet() == null ? "malformed (" + d.errorMessage() + "): the receiver drops it"
                    : !d.icrcOk() ? d.errorMessage() + ": the receiver drops it" : null;
            WireStep step = marker.step(f.timestampNanos(), from, to, ip, d.packet(), false, refused);
            if (filter.keeps(f.number(), d)) steps.add(step);
        }
        return steps;
    }

    /** Tells first sendings from repeats, and a repeat's reason from the last NAK its sender received. */
    private static final class Marker {
        private final Set<String> seen = new HashSet<>();
        private final java.util.Map<String, org.softrnic.wire.header.AethType> lastNak = new java.util.HashMap<>();
        /** Per responder, the PSN the next packet of the READ answer in progress must carry. */
        private final java.util.Map<String, Integer> nextReadPsn = new java.util.HashMap<>();

        /**
         * A MIDDLE or LAST READ response after a lost one is out of sequence: the requester drops it (and asks
         * again from the gap), so it does not complete the READ the way its opcode alone would say.
         */
        private String readResponseGap(String from, String to, RocePacket rp) {
            var op = rp.bth().opcode();
            if (op.opClass != org.softrnic.wire.OpClass.RDMA_READ_RESPONSE) return null;
            int psn = rp.bth().psn();
            Integer expected = nextReadPsn.get(from);
            switch (op.position) {
                case FIRST -> nextReadPsn.put(from, (psn + 1) & 0xffffff);
                case ONLY -> nextReadPsn.remove(from);
                default -> {
                    if (expected != null && expected != psn) {
                        return "out of sequence (PSN " + psn + ", " + to + " expected " + expected + ": an earlier packet of"
                                + " the answer was lost); " + to + " drops it and asks again from the gap";
                    }
                    if (op.position == org.softrnic.wire.Position.LAST) nextReadPsn.remove(from);
                    else nextReadPsn.put(from, (psn + 1) & 0xffffff);
                }
            }
            return null;
        }

        WireStep step(long at, String from, String to, byte[] bytes, RocePacket rp, boolean dropped, String refused) {
            if (rp != null && !dropped && refused == null) refused = readResponseGap(from, to, rp);
            Again again = null;
            String cm = CmStep.identity(rp);
            if (cm != null) {
                // a MAD goes again with a new PSN on QP1 but the same TID
                if (!seen.add(from + "/" + cm)) again = Again.CM_TIMEOUT;
            } else if (rp != null && rp.bth().opcode().opClass.request
                    && !seen.add(from + "/" + rp.bth().opcode() + "/" + rp.bth().psn())) {
                var nak = lastNak.get(from);
                again = nak == org.softrnic.wire.header.AethType.RNR_NAK ? Again.RNR
                        : nak == org.softrnic.wire.header.AethType.NAK ? Again.GO_BACK_N : Again.TIMEOUT;
            }
            if (rp != null && rp.aeth() != null && !dropped && refused == null) {
                var type = rp.aeth().type();
                lastNak.put(to, type == org.softrnic.wire.header.AethType.ACK ? lastNak.get(to) : type);
            }
            return new WireStep(at, from, to, bytes, rp, dropped, again, refused);
        }
    }
}
