package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.frame.Ecn;

/**
 * The fabric's ECN marking: a congested link sets CE on ECN-capable packets only; the ICRC masks the ECN
 * bits, so marked packets still verify, and the receiver counts them as mlx5 does.
 */
class EcnMarkingTest {
    private static Pair pair(Ecn ecn) {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 5,
                a -> a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, (26 << 2) | ecn.bits));
        p.fabric.faults(new LinkFaults(0, 0, 0, 1_000, 0, 1.0));
        return p;
    }

    @Test
    void ectPacketsAreMarkedAndStillVerify() {
        Pair p = pair(Ecn.ECT0);
        p.write64k();
        Counters b = p.b.nic.counters();
        assertEquals(64, b.get(Counter.NP_ECN_MARKED_ROCE_PACKETS), "every request of the 64 KiB WRITE at MTU 1024");
        assertEquals(b.get(Counter.RCVD_PKTS), b.get(Counter.RCVD_ICRC_VERIFIED), "CE does not break the ICRC");
        assertEquals(0, b.get(Counter.DROP_MALFORMED), "the IPv4 header checksum was updated");
        assertTrue(p.a.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS) > 0, "ACKs carry the QP's ECT too");
    }

    @Test
    void packetsThatAreNotEcnCapableAreLeftAlone() {
        Pair p = pair(Ecn.NOT_ECT);
        p.write64k();
        assertEquals(0, p.b.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS));
        assertEquals(0, p.a.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS));
    }

    @Test
    void faultsCanHoldForOneDirectionOnly() {
        Pair p = pair(Ecn.ECT1);
        p.fabric.faults(LinkFaults.NONE);
        p.fabric.faults(p.a.nic, p.b.nic, new LinkFaults(0, 0, 0, 1_000, 0, 1.0));
        p.write64k();
        assertEquals(64, p.b.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS), "a to b is congested");
        assertEquals(0, p.a.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS), "b to a is not");
    }
}
