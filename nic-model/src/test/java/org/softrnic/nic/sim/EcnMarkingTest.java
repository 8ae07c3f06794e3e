package org.softrnic.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.Ipv4;

/** T6 of ../shared/specs/dcqcn.md: the RED law at 10 Gb/s (Kmin 40 KB, Kmax 160 KB, Pmax 0.2), ECT packets only. */
class EcnMarkingTest {
    private static final EcnMarking HPCC_10G = EcnMarking.hpcc(10);

    @Test
    void theLawIsHpccsShouldSendCn() {
        assertEquals(new EcnMarking(40_000, 160_000, 0.2), HPCC_10G);
        assertEquals(0, HPCC_10G.probability(0));
        assertEquals(0, HPCC_10G.probability(40_000), "q <= Kmin: never");
        assertEquals(1, HPCC_10G.probability(160_001), "q > Kmax: always");
        assertEquals(0.2, HPCC_10G.probability(160_000), 1e-12, "Pmax at Kmax");
        assertEquals(0.1, HPCC_10G.probability(100_000), 1e-12, "halfway: Pmax/2");
        assertFalse(EcnMarking.OFF.enabled());
    }

    /** The queue pinned halfway: of 10^4 packets a fraction within 0.10 ± 0.009 (3σ) is marked. */
    @Test
    void aPinnedQueueMarksItsShareOfTenThousandPackets() {
        SplittableRandom r = new SplittableRandom(6);
        double p = HPCC_10G.probability(100_000);
        int marked = 0;
        for (int i = 0; i < 10_000; i++) if (r.nextDouble() < p) marked++;
        assertEquals(0.10, marked / 10_000.0, 0.009);
    }

    @Test
    void onlyEcnCapablePacketsAreMarkedAndTheChecksumFollows() {
        for (int ecn : new int[] {0b01, 0b10}) {
            byte[] ip = ipv4((26 << 2) | ecn);
            assertTrue(Network.markCe(ip));
            assertEquals(3, ip[1] & 3, "CE");
            assertEquals(26, (ip[1] & 0xff) >>> 2, "the DSCP stays");
            byte[] fresh = ip.clone();
            Ipv4.refreshChecksum(java.lang.foreign.MemorySegment.ofArray(fresh), 0);
            assertEquals(fresh[10], ip[10]);
            assertEquals(fresh[11], ip[11], "the IPv4 header checksum is recomputed");
        }
        assertFalse(Network.markCe(ipv4(26 << 2)), "Not-ECT: never");
        assertFalse(Network.markCe(ipv4((26 << 2) | 3)), "already CE");
        byte[] v6 = new byte[40];
        v6[0] = 0x60;
        v6[1] = (byte) 0x20; // traffic class 0x02: ECT(0)
        assertTrue(Network.markCe(v6));
        assertEquals(0x30, v6[1] & 0x30);
    }

    @Test
    void theDscpsClassSelectorIsThePriority() {
        assertEquals(6, Network.priority(ipv4(48 << 2 | 0b10)), "a CNP (DSCP 48): priority 6, served first, which the switch never marks");
        assertEquals(3, Network.priority(ipv4(26 << 2)), "RoCE data at DSCP 26: priority 3");
        assertEquals(0, Network.priority(ipv4(0)));
    }

    private static byte[] ipv4(int tos) {
        byte[] ip = new byte[40];
        ip[0] = 0x45;
        ip[1] = (byte) tos;
        ip[3] = 40;
        ip[8] = 64;
        ip[9] = 17;
        Ipv4.refreshChecksum(java.lang.foreign.MemorySegment.ofArray(ip), 0);
        return ip;
    }
}
