package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.List;
import org.softrnic.wire.packet.RocePacket;

/** The extended headers a reader of the ladder needs, in a few words each. */
final class HeaderFields {
    private HeaderFields() {
    }

    static String of(RocePacket p) {
        List<String> f = new ArrayList<>();
        if (p.reth() != null) f.add(String.format("RETH va=0x%x rkey=0x%x len=%d", p.reth().va(), p.reth().rkey(), p.reth().dlen()));
        if (p.atomicEth() != null) {
            f.add(String.format("AtomicETH va=0x%x rkey=0x%x add/swap=%d compare=%d", p.atomicEth().va(), p.atomicEth().rkey(),
                    p.atomicEth().swapAdd(), p.atomicEth().compare()));
        }
        if (p.aeth() != null) f.add(String.format("AETH %s MSN=%d", p.aeth().describe(), p.aeth().msn()));
        if (p.atomicAckEth() != null) f.add("AtomicAckETH orig=" + p.atomicAckEth().orig());
        if (p.immDt() != null) f.add(String.format("ImmDt 0x%08x", p.immDt().value()));
        if (p.ieth() != null) f.add(String.format("IETH rkey=0x%x", p.ieth().rkey()));
        if (p.deth() != null) f.add(String.format("DETH qkey=0x%x src_qp=0x%x", p.deth().qkey(), p.deth().sqpn()));
        if (p.bth().ackReq()) f.add("AckReq");
        if (CmStep.mad(p) != null) f.add(CmStep.fields(p));
        return String.join("  ", f);
    }

    /** The fields with those that count up along a run of packets (va, MSN) blanked: what packets alike share. */
    static String steady(RocePacket p) {
        return of(p).replaceAll("\\b(va|MSN)=\\S+", "$1=");
    }

    /**
     * The fields of a run of packets alike drawn as one row: the first packet's, and where a field counted up, its
     * first and last value ({@code MSN=3-7}).
     */
    static String span(RocePacket first, RocePacket last) {
        String[] a = of(first).split(" ", -1);
        String[] b = of(last).split(" ", -1);
        if (a.length != b.length) return of(first);
        for (int i = 0; i < a.length; i++) {
            if (!a[i].equals(b[i]) && a[i].contains("=")) a[i] = a[i] + "-" + b[i].substring(b[i].indexOf('=') + 1);
        }
        return String.join(" ", a);
    }
}
