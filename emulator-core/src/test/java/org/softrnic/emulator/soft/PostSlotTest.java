package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.VerbsException;

/** A request still on its way to the device when its QP is destroyed is refused there, and nothing is queued. */
class PostSlotTest {
    @Test
    void aPostToAQpDestroyedOnTheWayIsRefused() {
        PacketSink none = (buffer, offset, length) -> true;
        Nic nic = new Nic(NicConfig.of("a", Gid.parse("192.0.2.1"), 1), new VirtualClock(), none);
        ProtectionDomain pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(8);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCaps(4, 4, 1, 1, 0), false);
        PostSlot slot = new PostSlot(1, 0);
        slot.kind = PostSlot.Kind.RECV;
        slot.qp = qp;
        slot.recv.wrId = 7;
        nic.destroyQp(qp);
        assertTrue(qp.destroyed());
        VerbsException e = assertThrows(VerbsException.class, () -> slot.postTo(nic));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains("was destroyed"), e.getMessage());
        assertEquals(0, qp.rq().size(), "nothing was queued");
        assertEquals(PostSlot.Kind.NONE, slot.kind, "the slot is cleared for its next request");
    }
}
