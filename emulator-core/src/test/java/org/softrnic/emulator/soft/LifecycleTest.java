package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.fabric.CountedArena;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevices;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/** Double close, close in the wrong order, use after close: each a clear error; and no native memory left behind. */
class LifecycleTest {
    private static SoftRnicConfig config(String name, String gid) {
        return SoftRnicConfig.builder().name(name).gid(gid).build();
    }

    private static VerbsException fails(Errno errno, String verb, String mentions, Runnable r) {
        VerbsException e = assertThrows(VerbsException.class, r::run);
        assertEquals(errno, e.errno(), e.getMessage());
        assertEquals(verb, e.verb(), e.getMessage());
        assertTrue(e.getMessage().contains(mentions), e.getMessage() + " should mention " + mentions);
        return e;
    }

    @Test
    void closingInTheWrongOrderIsEbusyAndNamesWhatIsStillAttached() {
        try (SoftFabric fabric = SoftFabric.threaded(); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(config("life0", "10.9.0.1"));
            RdmaContext ctx = dev.open();
            ProtectionDomain pd = ctx.allocPd();
            CompletionChannel ch = ctx.createCompChannel();
            CompletionQueue cq = ctx.createCq(8, ch);
            MemoryRegion mr = pd.regMr(arena.allocate(4096), Access.LOCAL_WRITE);
            QueuePair qp = pd.createQp(QpInitAttr.rc(cq, QpCaps.of(4, 4)));
            String qpName = "RC QP 0x" + Integer.toHexString(qp.qpn());

            fails(Errno.EBUSY, "ibv_dealloc_pd", "MR lkey 0x" + Integer.toHexString(mr.lkey()), pd::close);
            fails(Errno.EBUSY, "ibv_dealloc_pd", qpName, pd::close);
            fails(Errno.EBUSY, "ibv_destroy_cq", qpName, cq::close);
            fails(Errno.EBUSY, "ibv_destroy_comp_channel", "CQ", ch::close);
            fails(Errno.EBUSY, "ibv_close_device", "PD", ctx::close);
            VerbsException busy = assertThrows(VerbsException.class, dev::close);
            assertEquals(Errno.EBUSY, busy.errno());

            // everything still works after the refusals
            RecvWr recv = new RecvWr(1);
            qp.modifyToRts(org.softrnic.verbs.QpAttr.rcConnect(ctx.queryGid(1, 0), qp.qpn(), org.softrnic.verbs.Mtu.MTU_1024));
            qp.postRecv(recv);

            qp.close();
            fails(Errno.EINVAL, "ibv_destroy_qp", "already closed", qp::close);
            fails(Errno.EINVAL, "ibv_post_send", "is closed", () -> qp.postSend(new SendWr()));
            fails(Errno.EINVAL, "ibv_post_recv", "is closed", () -> qp.postRecv(recv));
            fails(Errno.EINVAL, "ibv_modify_qp", "is closed", () -> qp.modify(new org.softrnic.verbs.QpAttr(), 0));
            mr.close();
            fails(Errno.EINVAL, "ibv_dereg_mr", "already closed", mr::close);
            cq.close();
            fails(Errno.EINVAL, "ibv_poll_cq", "is closed", () -> cq.poll(new org.softrnic.verbs.WorkCompletion[1]));
            ch.close();
            pd.close();
            fails(Errno.EINVAL, "ibv_reg_mr", "is closed", () -> pd.regMr(arena.allocate(64), 0));
            ctx.close();
            fails(Errno.EINVAL, "ibv_alloc_pd", "is closed", ctx::allocPd);
            fails(Errno.EINVAL, "ibv_close_device", "already closed", ctx::close);
        }
    }

    @Test
    void registeringConfinedMemoryIsRefusedBecauseTheDeviceThreadMovesTheData() {
        try (SoftFabric fabric = SoftFabric.threaded(); Arena confined = Arena.ofConfined()) {
            SoftRnic dev = fabric.add(config("life1", "10.9.0.2"));
            try (RdmaContext ctx = dev.open(); ProtectionDomain pd = ctx.allocPd()) {
                fails(Errno.EINVAL, "ibv_reg_mr", "shared or global arena", () -> pd.regMr(confined.allocate(64), Access.LOCAL_WRITE));
            }
        }
    }

    @Test
    void anInlineDeviceRefusesOtherThreads() throws Exception {
        try (SoftRnic dev = SoftRnic.open(SoftRnicConfig.builder().name("inline0").gid("127.0.0.1").link("udp:127.0.0.1:0")
                .progress("inline").build()); RdmaContext ctx = dev.open()) {
            var refused = new java.util.concurrent.atomic.AtomicReference<Throwable>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    ctx.allocPd();
                } catch (Throwable t) {
                    refused.set(t);
                }
            });
            other.join();
            assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
            assertTrue(refused.get().getMessage().contains("runs inline on thread"), refused.get().getMessage());
            ctx.allocPd().close(); // its own thread may
        }
    }

    @Test
    void aClosedDeviceLeavesTheListAndItsNativeMemoryIsFreed() throws Exception {
        long before = CountedArena.live();
        for (int i = 0; i < 5; i++) cycle("round" + i);
        assertEquals(before, CountedArena.live(), "native memory left behind by ten devices and their traffic");
        assertTrue(RdmaDevices.list().stream().noneMatch(d -> d.name().startsWith("round")));
    }

    /** Two devices with traffic between them on a threaded fabric and on UDP, then everything closed. */
    private static void cycle(String name) throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.THREADED, org.softrnic.emulator.config.FaultConfig.NONE, org.softrnic.verbs.Mtu.MTU_4096)) {
            assertTrue(RdmaDevices.list().contains(p.devA));
            assertTrue(CountedArena.live() > 0, "the devices hold native packet buffers while open");
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 100_000, p.mrA.lkey());
            wr.opcode = org.softrnic.verbs.SendOpcode.RDMA_WRITE;
            wr.sendFlags = org.softrnic.verbs.SendFlags.SIGNALED;
            wr.remoteAddr = p.mrB.addr();
            wr.rkey = p.mrB.rkey();
            p.qpA.postSend(wr);
            ApiPair.awaitOk(p.cqA);
        }
        try (ApiPair p = new ApiPair(ApiPair.Kind.UDP, org.softrnic.emulator.config.FaultConfig.NONE, org.softrnic.verbs.Mtu.MTU_1024)) {
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 10_000, p.mrA.lkey());
            wr.opcode = org.softrnic.verbs.SendOpcode.RDMA_READ;
            wr.sendFlags = org.softrnic.verbs.SendFlags.SIGNALED;
            wr.remoteAddr = p.mrB.addr();
            wr.rkey = p.mrB.rkey();
            p.qpA.postSend(wr);
            ApiPair.awaitOk(p.cqA);
        }
    }
}
