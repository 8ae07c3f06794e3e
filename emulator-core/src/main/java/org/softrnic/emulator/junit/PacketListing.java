package org.softrnic.emulator.junit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.packet.RocePacket;

/**
 * A run's packets, one line each, in the order they were sent: time, sender and receiver, opcode, PSN,
 * size, the AETH of acknowledgements, and whether the link lost it. (softrnic ladder FILE.pcap draws the
 * capture beside it in full.)
 */
final class PacketListing {
    private PacketListing() {
    }

    static String of(List<SimFabric.Packet> trace, List<SoftRnic> devices) {
        Map<String, String> names = new HashMap<>();
        for (SoftRnic d : devices) names.put(d.config().gids().getFirst(), d.name());
        FrameCodec codec = new FrameCodec();
        StringBuilder out = new StringBuilder(String.format("%12s  %-22s %-30s %-10s %7s%n", "time (us)", "from -> to", "opcode", "PSN", "IP B"));
        long t0 = trace.isEmpty() ? 0 : trace.getFirst().sentAt();
        for (SimFabric.Packet p : trace) {
            if (p.duplicate()) continue;
            DecodedFrame d = codec.decodeIp(p.bytes(), 0);
            RocePacket rp = d.packet();
            String way = d.ip() == null ? "?" : name(names, d.ip().src().getHostAddress()) + " -> " + name(names, d.ip().dst().getHostAddress());
            String op = rp == null ? "malformed (" + d.errorMessage() + ")" : rp.opcode().name();
            String psn = rp == null ? "" : Integer.toString(rp.bth().psn());
            String aeth = rp != null && rp.aeth() != null ? "  AETH " + rp.aeth().describe() + " MSN=" + rp.aeth().msn() : "";
            out.append(String.format("%12.3f  %-22s %-30s %-10s %7d%s%s%n", (p.sentAt() - t0) / 1000.0, way, op, psn, p.bytes().length,
                    aeth, p.dropped() ? "  LOST on the link" : ""));
        }
        return out.toString();
    }

    private static String name(Map<String, String> names, String address) {
        return names.getOrDefault(address, names.getOrDefault("::ffff:" + address, address));
    }
}
