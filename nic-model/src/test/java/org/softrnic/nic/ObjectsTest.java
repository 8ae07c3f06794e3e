package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/** Verbs objects: keys, lifetimes and their errnos, CQ notification, counters and device attributes. */
class ObjectsTest {
    final Nic nic = new Nic(NicConfig.of("t", Gid.parse("192.0.2.1"), 42), new VirtualClock(), (b, o, l) -> true);

    @Test
    void keysAreRandomNonZeroAndNeverReusedWhileLive() {
        var pd = nic.allocPd();
        MemorySegment seg = Arena.ofAuto().allocate(64);
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            MemoryRegion mr = nic.regMr(pd, seg, Access.LOCAL_WRITE | Access.REMOTE_READ);
            assertNotEquals(0, mr.lkey());
            assertTrue(keys.add(mr.lkey()), "key reused while live");
        }
        MemoryRegion local = nic.regMr(pd, seg, Access.LOCAL_WRITE);
        assertEquals(0, local.rkey(), "like rxe, no rkey without remote access");
        long spread = (long) keys.stream().mapToInt(Integer::intValue).max().orElse(0)
                - keys.stream().mapToInt(Integer::intValue).min().orElse(0);
        assertTrue(spread > 1L << 31, "keys are spread over the 32-bit space, not counted up: " + spread);
    }

    @Test
    void accessFlagsAreCheckedAsRdmaCoreDoes() {
        var pd = nic.allocPd();
        MemorySegment seg = Arena.ofAuto().allocate(64);
        VerbsException e = assertThrows(VerbsException.class, () -> nic.regMr(pd, seg, Access.REMOTE_WRITE));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains("need LOCAL_WRITE"));
        assertThrows(VerbsException.class, () -> nic.regMr(pd, seg.asReadOnly(), Access.LOCAL_WRITE));
        assertThrows(VerbsException.class, () -> nic.regMr(pd, seg, 1 << 20));
    }

    @Test
    void closingInTheWrongOrderIsEbusyAndNamesWhatIsAttached() {
        var pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(8);
        var qp = nic.createQp(pd, QpType.RC, cq, cq, null, QpCaps.of(4, 4), false);
        MemoryRegion mr = nic.regMr(pd, Arena.ofAuto().allocate(64), Access.LOCAL_WRITE);
        VerbsException busyPd = assertThrows(VerbsException.class, () -> nic.deallocPd(pd));
        assertEquals(Errno.EBUSY, busyPd.errno());
        assertTrue(busyPd.getMessage().contains("still has 2"), busyPd.getMessage());
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, () -> nic.destroyCq(cq)).errno());
        nic.destroyQp(qp);
        nic.deregMr(mr);
        nic.destroyCq(cq);
        nic.deallocPd(pd);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> nic.deallocPd(pd)).errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> nic.deregMr(mr)).errno());
    }

    @Test
    void solicitedOnlyNotificationWaitsForASolicitedCompletion() {
        Pair p = Pair.rc();
        AtomicInteger events = new AtomicInteger();
        p.b.rcq.onEvent(events::incrementAndGet);
        p.b.rcq.requestNotify(true);
        p.b.postRecv(1, 0, 64);
        p.b.postRecv(2, 64, 64);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 8));
        p.run();
        assertEquals(0, events.get(), "an unsolicited completion does not wake a solicited-only waiter");
        SendWr s = p.a.wr(2, SendOpcode.SEND, 0, 8);
        s.sendFlags |= SendFlags.SOLICITED;
        p.a.post(s);
        p.run();
        assertEquals(1, events.get());
        p.b.rcq.requestNotify(false);
        p.b.postRecv(3, 0, 64);
        p.a.post(p.a.wr(3, SendOpcode.SEND, 0, 8));
        p.run();
        assertEquals(2, events.get(), "next-completion arming fires on any completion, once");
    }

    @Test
    void countersHaveRxeNamesAndDeviceAttributesRxeValues() {
        List<String> names = List.copyOf(nic.counters().snapshot().keySet()).subList(0, 15);
        assertEquals(List.of("sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request", "rcvd_rnr_err",
                "send_rnr_err", "rcvd_seq_err", "ack_deferred", "retry_exceeded_err", "retry_rnr_exceeded_err",
                "completer_retry_err", "send_err", "link_downed", "rdma_sends", "rdma_recvs"), names);
        DeviceAttributes a = nic.queryDevice();
        assertEquals(128, a.maxQpRdAtom());
        assertEquals(DeviceAttributes.AtomicCap.HCA, a.atomicCap());
        var pd = nic.allocPd();
        var cq = nic.createCq(4);
        assertThrows(VerbsException.class, () -> nic.createQp(pd, QpType.RC, cq, cq, null,
                new QpCaps(4, 4, 4, 4, a.maxInlineData() + 1), false));
        assertThrows(VerbsException.class, () -> nic.createCq(0));
        // a QP without a type or sizes is refused with EINVAL, not made to fail at its first post
        for (var bad : List.<Runnable>of(() -> nic.createQp(pd, null, cq, cq, null, QpCaps.of(4, 4), false),
                () -> nic.createQp(pd, QpType.RC, cq, cq, null, null, false))) {
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, bad::run).errno());
        }
    }

    @Test
    void postingChecksQueueDepthStateAndSgeCount() {
        Pair p = Pair.rc();
        var qp = p.a.nic.createQp(p.a.pd, QpType.RC, p.a.scq, p.a.rcq, null, QpCaps.of(2, 2), false);
        SendWr w = p.a.wr(1, SendOpcode.SEND, 0, 8);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> p.a.nic.postSend(qp, w)).errno(),
                "a QP in RESET takes no sends");
        w.numSge = 9;
        assertThrows(VerbsException.class, () -> p.a.post(w), "more SGEs than max_send_sge");
    }
}
