package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;

/**
 * Every verbs call with wrong arguments, as a table: each gets rdma-core's errno and a message that names
 * the argument, and none leaves a trace: afterwards the device carries an RC WRITE as before, and holds
 * exactly the objects it held.
 */
class BadArgumentsTest {
    private record Case(String call, Errno errno, String names, Runnable run) {}

    @Test
    void eachWrongArgumentGetsItsErrnoNamesItAndLeavesTheDeviceUsable() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024);
             Arena arena = Arena.ofShared()) {
            List<String> before = p.devA.openObjects();
            MemorySegment mem = arena.allocate(4096, 4096);
            ProtectionDomain otherPd = p.a.allocPd();
            CompletionQueue otherCq = p.b.createCq(4); // of the other device
            MemoryRegion closedMr = p.pdA.regMr(mem, Access.LOCAL_WRITE);
            closedMr.close();
            ProtectionDomain closedPd = p.a.allocPd();
            closedPd.close();
            MemoryWindow type2 = p.pdA.allocMw(2);
            QueuePair fresh = p.pdA.createQp(QpInitAttr.rc(p.cqA, QpCaps.of(4, 4)));
            QueuePair fresh2 = p.pdA.createQp(QpInitAttr.rc(p.cqA, QpCaps.of(4, 4)));
            QueuePair ud = p.pdA.createQp(new QpInitAttr(QpType.UD, p.cqA, p.cqA, null, QpCaps.of(4, 4), false));
            QpAttr udAttr = new QpAttr();
            udAttr.qkey = 0x11111111;
            ud.modifyToRts(udAttr);
            List<Case> cases = List.of(
                    new Case("ibv_query_port(port 2)", Errno.EINVAL, "port", () -> p.a.queryPort(2)),
                    new Case("ibv_query_gid(index 99)", Errno.EINVAL, "99", () -> p.a.queryGid(1, 99)),
                    new Case("ibv_create_cq(cqe 0)", Errno.EINVAL, "cqe", () -> p.a.createCq(0)),
                    new Case("ibv_create_cq(cqe 2^30)", Errno.EINVAL, "cqe", () -> p.a.createCq(1 << 30)),
                    new Case("ibv_reg_mr(unknown access bits)", Errno.EINVAL, "access", () -> p.pdA.regMr(mem, 1 << 30)),
                    new Case("ibv_reg_mr(REMOTE_WRITE without LOCAL_WRITE)", Errno.EINVAL, "LOCAL_WRITE",
                            () -> p.pdA.regMr(mem, Access.REMOTE_WRITE)),
                    new Case("ibv_reg_mr(read-only segment for writing)", Errno.EINVAL, "read-only",
                            () -> p.pdA.regMr(mem.asReadOnly(), Access.LOCAL_WRITE)),
                    new Case("ibv_reg_mr(a deallocated PD)", Errno.EINVAL, "PD", () -> closedPd.regMr(mem, Access.LOCAL_WRITE)),
                    new Case("ibv_alloc_mw(type 3)", Errno.EINVAL, "type", () -> p.pdA.allocMw(3)),
                    new Case("ibv_create_srq(max_wr 0)", Errno.EINVAL, "max_wr", () -> p.pdA.createSrq(0, 1, 0)),
                    new Case("ibv_create_srq(max_sge 1000)", Errno.EINVAL, "max_sge", () -> p.pdA.createSrq(16, 1000, 0)),
                    new Case("ibv_create_srq(srq_limit over max_wr)", Errno.EINVAL, "srq_limit", () -> p.pdA.createSrq(16, 1, 17)),
                    new Case("ibv_create_qp(max_send_wr 0)", Errno.EINVAL, "max_send_wr",
                            () -> p.pdA.createQp(QpInitAttr.rc(p.cqA, QpCaps.of(0, 4)))),
                    new Case("ibv_create_qp(max_send_sge 1000)", Errno.EINVAL, "max_send_sge",
                            () -> p.pdA.createQp(QpInitAttr.rc(p.cqA, new QpCaps(4, 4, 1000, 1, 0)))),
                    new Case("ibv_create_qp(max_inline_data 2^20)", Errno.EINVAL, "max_inline_data",
                            () -> p.pdA.createQp(QpInitAttr.rc(p.cqA, new QpCaps(4, 4, 1, 1, 1 << 20)))),
                    new Case("ibv_create_qp(no send CQ)", Errno.EINVAL, "CQ",
                            () -> p.pdA.createQp(new QpInitAttr(QpType.RC, null, p.cqA, null, QpCaps.of(4, 4), false))),
                    new Case("ibv_create_qp(a CQ of another device)", Errno.EINVAL, "CQ",
                            () -> otherPd.createQp(QpInitAttr.rc(otherCq, QpCaps.of(4, 4)))),
                    new Case("ibv_modify_qp(RTS to INIT)", Errno.EINVAL, "INIT", () -> {
                        QpAttr a = new QpAttr();
                        a.qpState = QpState.INIT;
                        p.qpA.modify(a, QpAttrMask.STATE);
                    }),
                    new Case("ibv_modify_qp(RTR to RTS, timeout 32)", Errno.EINVAL, "timeout",
                            () -> connect(fresh, p.qpB, a -> a.timeout = 32)),
                    new Case("ibv_modify_qp(RTR to RTS, retry_cnt 8)", Errno.EINVAL, "retry_cnt",
                            () -> connect(fresh2, p.qpB, a -> a.retryCnt = 8)),
                    new Case("ibv_modify_qp(RTS to RTS, min_rnr_timer 32)", Errno.EINVAL, "min_rnr_timer", () -> {
                        QpAttr a = new QpAttr();
                        a.minRnrTimer = 32;
                        p.qpA.modify(a, QpAttrMask.MIN_RNR_TIMER);
                    }),
                    new Case("ibv_post_send(num_sge over max_send_sge)", Errno.EINVAL, "num_sge", () -> {
                        SendWr w = new SendWr(8);
                        w.numSge = 8;
                        w.opcode = SendOpcode.SEND;
                        p.qpA.postSend(w);
                    }),
                    new Case("ibv_post_send(RDMA WRITE on a UD QP)", Errno.EINVAL, "opcode", () -> {
                        SendWr w = new SendWr(1).sge(p.mrA.addr(), 64, p.mrA.lkey());
                        w.opcode = SendOpcode.RDMA_WRITE;
                        ud.postSend(w);
                    }),
                    new Case("ibv_post_send(inline over max_inline_data)", Errno.EINVAL, "inline", () -> {
                        SendWr w = new SendWr(1).sge(p.mrA.addr(), 4096, p.mrA.lkey());
                        w.opcode = SendOpcode.SEND;
                        w.sendFlags = SendFlags.INLINE;
                        p.qpA.postSend(w);
                    }),
                    new Case("ibv_post_send(a QP in RTR)", Errno.EINVAL, "RTS", () -> {
                        SendWr w = new SendWr(1).sge(p.mrA.addr(), 64, p.mrA.lkey());
                        w.opcode = SendOpcode.SEND;
                        fresh.postSend(w);
                    }),
                    new Case("ibv_post_recv(num_sge over max_recv_sge)", Errno.EINVAL, "num_sge", () -> {
                        RecvWr r = new RecvWr(8);
                        r.numSge = 8;
                        p.qpA.postRecv(r);
                    }),
                    new Case("ibv_bind_mw(a type 2 window)", Errno.EINVAL, "type 1",
                            () -> p.qpA.bindMw(type2, 1, p.mrA, p.mrA.addr(), 64, Access.REMOTE_WRITE)),
                    new Case("ibv_create_ah(sgid_index 99)", Errno.EINVAL, "sgid_index",
                            () -> p.pdA.createAh(new AddressVector(Gid.parse("10.1.0.2"), 99, 0, 64, 0))),
                    new Case("ibv_dealloc_pd(with regions)", Errno.EBUSY, "still used by MR", () -> p.pdA.close()),
                    new Case("ibv_destroy_cq(used by QPs)", Errno.EBUSY, "QP", () -> p.cqA.close()),
                    new Case("ibv_dereg_mr(twice)", Errno.EINVAL, "already closed", closedMr::close));
            List<String> table = new ArrayList<>();
            for (Case c : cases) {
                try {
                    c.run().run();
                    fail(c.call() + " was accepted");
                } catch (VerbsException e) {
                    table.add(String.format("%-48s %-7s %s", c.call(), e.errno(), e.getMessage()));
                    assertEquals(c.errno(), e.errno(), c.call() + ": " + e.getMessage());
                    assertTrue(e.getMessage().contains(c.names()), c.call() + " does not name its argument (" + c.names() + "): " + e.getMessage());
                }
            }
            table.forEach(System.out::println);
            ud.close();
            fresh.close();
            fresh2.close();
            type2.close();
            otherPd.close();
            otherCq.close();
            assertEquals(before, p.devA.openObjects(), "the refused calls left nothing behind");
            // and the device carries traffic as before
            SendWr w = new SendWr(1).sge(p.mrA.addr(), 4096, p.mrA.lkey());
            w.opcode = SendOpcode.RDMA_WRITE;
            w.sendFlags = SendFlags.SIGNALED;
            w.remoteAddr = p.mrB.addr();
            w.rkey = p.mrB.rkey();
            p.qpA.postSend(w);
            assertEquals(WcStatus.SUCCESS, ApiPair.awaitOk(p.cqA).status);
        }
    }

    /** Connects {@code qp} to B's {@code peer} from RESET to RTS with one attribute changed by {@code change}. */
    private static void connect(QueuePair qp, QueuePair peer, java.util.function.Consumer<QpAttr> change) {
        QpAttr a = QpAttr.rcConnect(Gid.parse("10.1.0.2"), peer.qpn(), Mtu.MTU_1024);
        change.accept(a);
        qp.modifyToRts(a);
    }
}
