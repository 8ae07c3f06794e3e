package org.softrnic.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;

/**
 * A peer that sends CM MADs of every kind with random fields, some near the ids B really has, a few bytes flipped:
 * B's CM, listening for RC and UD and answering as rdma_cm does (accept, reject or destroy at random), takes each
 * or drops it and counts it; nothing it cannot take reaches its device loop, and once its consumer destroys every
 * id and timewait is over, it holds nothing but its listeners.
 */
class CmHostileTest {
    private static final Gid A = Gid.parse("192.0.2.9");
    private static final Gid B = Gid.parse("192.0.2.1");

    @Test
    void randomCmMadsAreTakenOrDroppedAndLeaveNothingBehind() {
        SimFabric f = new SimFabric(41);
        Nic b = f.add(NicConfig.of("b", B, 2).withMtu(Mtu.MTU_1024));
        Random r = new Random(41);
        List<IbCmId> made = new ArrayList<>();
        CmAgent[] cm = new CmAgent[1];
        IbCmHandler answer = (id, listener, e, mad) -> {
            if (listener != null) made.add(id);
            switch (e) {
                case REQ_RECEIVED -> {
                    cm[0].sendMra(id);
                    if (r.nextBoolean()) cm[0].sendRep(id, new CmRep(0x40 + r.nextInt(8), r.nextInt(1 << 24), 1, 1, 7, false, 15, null));
                    else cm[0].sendRej(id, CmAgent.REJ_CONSUMER_DEFINED, new byte[0], new byte[0]);
                }
                case SIDR_REQ_RECEIVED -> {
                    switch (r.nextInt(3)) {
                        case 0 -> cm[0].sendSidrRep(id, CmAgent.SIDR_SUCCESS, 0x50, Cma.RDMA_UDP_QKEY, new byte[0]);
                        case 1 -> cm[0].sendSidrRep(id, CmAgent.SIDR_REJECT, 0, 0, new byte[0]);
                        default -> cm[0].destroy(id);
                    }
                }
                case DREQ_RECEIVED -> cm[0].sendDrep(id, new byte[0]);
                default -> { }
            }
        };
        cm[0] = new CmAgent(b, 0x5054_00ff_fe12_3401L, 2);
        cm[0].listen(cm[0].createId(answer), CmaHeader.serviceId(CmaHeader.PS_TCP, 7174));
        cm[0].listen(cm[0].createId(answer), CmaHeader.serviceId(CmaHeader.PS_UDP, 7174));
        Nic a = f.add(NicConfig.of("a", A, 1).withMtu(Mtu.MTU_1024));
        MadPort peer = a.kernel(() -> new MadPort(a));
        AddressVector toB = new AddressVector(B, 0, 0, 64, 0);
        int sent = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] mad = hostile(r, made);
            if (peer.send(toB, mad)) sent++;
            if (i % 16 == 15) f.runUntilIdle(); // the peer's QP1 has 64 sends: let them go
        }
        f.runUntilIdle();
        long taken = b.counters().get(Counter.CM_RX_MSGS);
        long dropped = b.counters().get(Counter.CM_RX_DROPPED);
        // a MAD the CM parses counts in cm_rx_msgs, and again in cm_rx_dropped when it then finds no id for it
        assertTrue(taken <= sent && taken + dropped >= sent, "every MAD counted: sent " + sent + ", msgs " + taken + ", dropped " + dropped);
        assertTrue(taken > sent / 2, "most of them were CM messages the CM parsed: " + taken);
        assertTrue(b.diagnostics().recent().stream().noneMatch(x -> x.why().contains("could not take")),
                "nothing the CM could not take: " + b.diagnostics().recent());
        for (IbCmId id : made) cm[0].destroy(id);
        f.runUntilIdle(); // timewait runs out
        assertEquals(2, cm[0].liveIds(), "the two listeners and nothing else");
        assertEquals(0, cm[0].openSidrRequests());
    }

    /** A CM message of a random kind with random fields, its comm IDs often B's real ones, a few bytes flipped. */
    private static byte[] hostile(Random r, List<IbCmId> made) {
        CmMessage msg = CmMessage.values()[r.nextInt(CmMessage.values().length)];
        CmFormat.Built m = CmFormat.start(msg, r.nextLong());
        for (var field : msg.fields) {
            if (field.bytes()) continue;
            long v = r.nextLong();
            if (field.name().equals("service_id")) {
                v = CmaHeader.serviceId(r.nextBoolean() ? CmaHeader.PS_TCP : CmaHeader.PS_UDP, r.nextInt(4) == 0 ? r.nextInt(1 << 16) : 7174);
            } else if (field.name().equals("remote_comm_id") && !made.isEmpty() && r.nextBoolean()) {
                v = made.get(r.nextInt(made.size())).localCommId();
            } else if (field.name().equals("local_comm_id") || field.name().equals("request_id")) {
                v = r.nextInt(64); // few distinct ids: duplicates and crossings happen
            }
            m.set(field.name(), v);
        }
        byte[] pd = new byte[msg.privateDataSize()];
        if ((msg == CmMessage.REQ || msg == CmMessage.SIDR_REQ) && r.nextInt(4) != 0) {
            new CmaHeader(0, 4, r.nextInt(1 << 16), A.toInetAddress(), B.toInetAddress()).write(MemorySegment.ofArray(pd), 0);
        } else {
            r.nextBytes(pd);
        }
        byte[] bytes = m.privateData(pd);
        for (int k = r.nextInt(4); k > 0; k--) bytes[24 + r.nextInt(Mad.SIZE - 24)] ^= (byte) (1 << r.nextInt(8));
        return bytes;
    }
}
