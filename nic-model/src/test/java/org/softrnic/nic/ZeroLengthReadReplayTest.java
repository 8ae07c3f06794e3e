package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;

/**
 * A zero-length RDMA READ carries no key that must be valid (rxe's check_rkey: "A zero-byte op is not
 * required to set an addr or rkey"), so its replay, after its response is lost, checks none either, as rxe's
 * read_reply replays it.
 */
class ZeroLengthReadReplayTest {

    static SendWr zeroRead(Pair p, long wrId) {
        SendWr r = p.a.wr(wrId, SendOpcode.RDMA_READ, 0, 0);
        r.remoteAddr = 0;
        r.rkey = 0;
        return r;
    }

    // A->B READ 0x100 (va 0, rkey 0, len 0); B->A READ_RESPONSE_ONLY 0x100 (lost);
    // A times out and sends the READ again; B replays READ_RESPONSE_ONLY 0x100, not NAK Remote Access Error
    @Test
    void aDuplicateZeroLengthReadIsReplayedWithoutAKeyCheck() {
        Pair p = Pair.rc();
        AtomicInteger fromB = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 1 && fromB.incrementAndGet() == 1);
        p.a.post(zeroRead(p, 1));
        p.run();
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        assertEquals(QpState.RTS, p.b.qp.state());
        assertEquals(QpState.RTS, p.a.qp.state());
        List<Opcode> fromBOps = ProtocolReviewTest.sentBy(p, 1).stream().map(RcErrorPathsTest::opcodeOf).toList();
        assertEquals(List.of(Opcode.RC_RDMA_READ_RESPONSE_ONLY, Opcode.RC_RDMA_READ_RESPONSE_ONLY), fromBOps);
        assertEquals(1, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST));
    }

    @Test
    void aZeroLengthReadWithoutLossCompletes() {
        Pair p = Pair.rc();
        p.a.post(zeroRead(p, 1));
        p.run();
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
    }
}
