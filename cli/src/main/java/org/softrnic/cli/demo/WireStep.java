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
 * link dropped it, and, for a request that went out before (same sender, opcode and PSN), why it went again.
 */
record WireStep(long sentAt, String from, String to, byte[] bytes, RocePacket packet, boolean dropped, Again again) {
    /** Why a request is on the wire a second time. */
    enum Again {
        RNR("sent again after the RNR wait"),
        GO_BACK_N("sent again (go-back-N)"),
        TIMEOUT("sent again: no ACK came before the timeout");

        final String words;

        Again(String words) {
            this.words = words;
        }
    }

    /** The traced packets of a run, decoded, with retransmissions marked. */
    static List<WireStep> of(List<SimFabric.Packet> trace, String[] names) {
        FrameCodec codec = new FrameCodec();
        Set<String> seen = new HashSet<>();
        List<WireStep> steps = new ArrayList<>();
        // the last NAK each side received: it says why that side sends again
        java.util.Map<String, org.softrnic.wire.header.AethType> lastNak = new java.util.HashMap<>();
        for (SimFabric.Packet p : trace) {
            if (p.duplicate()) continue; // the link's own copy of a packet already shown
            DecodedFrame d = codec.decodeIp(p.bytes(), 0);
            RocePacket rp = d.packet();
            String from = names[p.from()];
            String to = names[1 - p.from()];
            Again again = null;
            if (rp != null && rp.bth().opcode().opClass.request
                    && !seen.add(from + "/" + rp.bth().opcode() + "/" + rp.bth().psn())) {
                var nak = lastNak.get(from);
                again = nak == org.softrnic.wire.header.AethType.RNR_NAK ? Again.RNR
                        : nak == org.softrnic.wire.header.AethType.NAK ? Again.GO_BACK_N : Again.TIMEOUT;
            }
            if (rp != null && rp.aeth() != null && !p.dropped()) {
                var type = rp.aeth().type();
                lastNak.put(to, type == org.softrnic.wire.header.AethType.ACK ? lastNak.get(to) : type);
            }
            steps.add(new WireStep(p.sentAt(), from, to, p.bytes(), rp, p.dropped(), again));
        }
        return steps;
    }
}
