package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.packet.RocePacket;

/**
 * QP1, the GSI, as rxe runs it: a UD QP numbered 1 whose datagrams carry the GSI Q_Key 0x80010000 and P_Key
 * 0xFFFF, with the 256-byte MAD as payload; it takes nothing with another Q_Key, and a device has one.
 */
class GsiTest {
    private static final int MAD = 256;

    @Test
    void aMadGoesFromQp1ToQp1WithTheGsiQkey() {
        Pair p = new Pair(QpType.UD, Mtu.MTU_1024, 5, a -> { });
        QueuePair ga = p.a.nic.createGsi(p.a.pd, p.a.scq, p.a.rcq, QpCaps.of(8, 8));
        QueuePair gb = p.b.nic.createGsi(p.b.pd, p.b.scq, p.b.rcq, QpCaps.of(8, 8));
        assertEquals(Nic.GSI_QPN, ga.qpn());
        assertEquals(QpState.RTS, gb.state(), "QP1 is ready as the MAD layer leaves it");
        p.a.qp = ga;
        p.b.qp = gb;
        p.a.fill(0, MAD, 3);
        p.b.postRecv(1, 0, 40 + MAD);
        p.b.postRecv(2, 4096, 40 + MAD);
        p.a.post(mad(p, 10, Nic.GSI_QKEY));
        p.a.post(mad(p, 11, 0x11111111)); // another Q_Key: QP1 does not take it
        p.run();
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(1, r.size(), "one MAD taken: " + r);
        assertEquals(WcStatus.SUCCESS, r.getFirst().status);
        assertEquals(40 + MAD, r.getFirst().byteLen, "the GRH area, then the MAD");
        assertEquals(Nic.GSI_QPN, r.getFirst().srcQp, "from QP1");
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 40, MAD);
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_BAD_QKEY));
        RocePacket first = new FrameCodec().decodeIp(p.fabric.trace().getFirst().bytes(), 0).packet();
        assertEquals(Opcode.UD_SEND_ONLY, first.opcode());
        assertEquals(Nic.GSI_QPN, first.bth().dqpn());
        assertEquals(0xffff, first.bth().pkey());
        assertEquals(Nic.GSI_QKEY, first.deth().qkey());
        assertEquals(Nic.GSI_QPN, first.deth().sqpn());
        assertEquals(MAD, first.payloadLength());
        assertTrue(first.bth().ackReq(), "rxe's MADs carry AckReq (a 6.1 guest's REP, captured), its UD data does not");
    }

    @Test
    void aDeviceHasOneQp1() {
        Pair p = new Pair(QpType.UD, Mtu.MTU_1024, 5, a -> { });
        p.a.nic.createGsi(p.a.pd, p.a.scq, p.a.rcq, QpCaps.of(8, 8));
        VerbsException e = assertThrows(VerbsException.class, () -> p.a.nic.createGsi(p.a.pd, p.a.scq, p.a.rcq, QpCaps.of(8, 8)));
        assertEquals(Errno.EEXIST, e.errno());
        assertTrue(p.a.qp.qpn() > Nic.GSI_QPN, "other QPs are numbered after the special ones");
    }

    private static SendWr mad(Pair p, long id, int qkey) {
        SendWr w = p.a.wr(id, SendOpcode.SEND, 0, MAD);
        w.ah = Handles.ah(AddressVector.to(Pair.GID_B));
        w.remoteQpn = Nic.GSI_QPN;
        w.remoteQkey = qkey;
        return w;
    }
}
