package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;

/**
 * rxe's check_addr on RC, over IPv4 and IPv6: a well-formed WRITE with B's QPN, the PSN B expects and a
 * valid rkey is dropped (drop_wrong_peer) when it comes from another host or goes to another of B's
 * addresses, and as not RoCE when it goes to another UDP port; none of them writes a byte, and A's real
 * WRITE with that PSN then executes.
 */
class PeerAddressTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void onlyThePeerReachesTheQp(boolean ipv6) {
        Pair p = ipv6 ? Pair.rcIpv6() : Pair.rc();
        String a = ipv6 ? "2001:db8:0:0:0:0:0:1" : "192.0.2.1";
        String b = ipv6 ? "2001:db8:0:0:0:0:0:2" : "192.0.2.2";
        String stranger = ipv6 ? "2001:db8:0:0:0:0:0:9" : "198.51.100.9";
        String otherOfB = ipv6 ? "2001:db8:0:0:0:0:0:99" : "192.0.2.99";
        byte[] payload = new byte[64];
        Arrays.fill(payload, (byte) 0x66);
        p.fabric.inject(p.b.nic, write(p, stranger, b, payload).frame());
        p.fabric.inject(p.b.nic, write(p, a, otherOfB, payload).frame());
        p.fabric.inject(p.b.nic, write(p, a, b, payload).udpPort(4792).frame());
        p.run();
        assertEquals(2, p.b.nic.counters().get(Counter.DROP_WRONG_PEER));
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_NOT_ROCE));
        assertEquals(0, p.b.mem.get(ValueLayout.JAVA_BYTE, 0), "nothing written");
        p.a.fill(0, 64, 0x11);
        SendWr wr = p.write(1, 0, 0, 64);
        p.a.post(wr);
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 0, 64);
        assertEquals(0, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST), "the spoofs moved no PSN");
    }

    private static Pkt write(Pair p, String from, String to, byte[] payload) {
        return Pkt.of(Opcode.RC_RDMA_WRITE_ONLY).qpn(p.b.qp.qpn()).psn(0x100).ackReq()
                .reth(p.b.va(0), p.b.mr.rkey(), payload.length).payload(payload).from(from).to(to);
    }
}
