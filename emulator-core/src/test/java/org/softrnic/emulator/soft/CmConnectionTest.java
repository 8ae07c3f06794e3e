package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmConnection;
import org.softrnic.verbs.cm.CmListener;
import org.softrnic.verbs.cm.ConnParam;

/** The one-call convenience: CmListener.accept on one side, CmConnection.connect on the other, a SEND across, both closed. */
class CmConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void oneCallEachSideConnectsAndASendCrosses() throws Exception {
        try (SoftFabric fabric = SoftFabric.threaded();
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("ccS").gid("10.4.0.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("ccC").gid("10.4.0.2").build());
             CmListener listener = CmListener.listen(new InetSocketAddress("10.4.0.1", 7471));
             Arena arena = Arena.ofShared()) {
            QpCaps caps = new QpCaps(8, 8, 1, 1, 0);
            CompletableFuture<CmConnection> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return listener.accept(caps, ConnParam.DEFAULT.withPrivateData("welcome".getBytes()), WAIT);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (CmConnection c = CmConnection.connect(new InetSocketAddress("10.4.0.1", 7471), caps,
                    ConnParam.DEFAULT.withPrivateData("hello".getBytes()), WAIT);
                 CmConnection s = accepted.get(20, TimeUnit.SECONDS)) {
                assertArrayEquals("welcome".getBytes(), java.util.Arrays.copyOf(c.privateData(), 7), "the REP's private data");
                assertArrayEquals("hello".getBytes(), java.util.Arrays.copyOf(s.privateData(), 5), "the REQ's, after the CMA header");
                MemorySegment in = arena.allocate(64);
                MemorySegment out = arena.allocate(64);
                try (MemoryRegion rin = s.pd().regMr(in, Access.LOCAL_WRITE); MemoryRegion rout = c.pd().regMr(out, Access.LOCAL_WRITE)) {
                    s.qp().postRecv(new RecvWr(1).sge(rin.addr(), 64, rin.lkey()));
                    out.setString(0, "over rdma_cm in one call");
                    SendWr w = new SendWr(1).sge(rout.addr(), 64, rout.lkey());
                    w.opcode = SendOpcode.SEND;
                    w.sendFlags = SendFlags.SIGNALED;
                    c.qp().postSend(w);
                    assertEquals(WcStatus.SUCCESS, poll(c).status);
                    WorkCompletion r = poll(s);
                    assertEquals(WcOpcode.RECV, r.opcode);
                    assertEquals("over rdma_cm in one call", in.getString(0));
                }
            }
        }
    }

    @Test
    void aConnectNoOneListensForIsRefusedInOneException() throws Exception {
        try (SoftFabric fabric = SoftFabric.threaded();
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("ccS2").gid("10.4.1.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("ccC2").gid("10.4.1.2").build())) {
            VerbsException e = assertThrows(VerbsException.class,
                    () -> CmConnection.connect(new InetSocketAddress("10.4.1.1", 7471), new QpCaps(4, 4, 1, 1, 0), null, WAIT));
            assertEquals(Errno.ECONNREFUSED, e.errno(), e.getMessage());
            assertEquals(true, e.getMessage().contains("REJ reason 8"), e.getMessage());
        }
    }

    private static WorkCompletion poll(CmConnection c) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) if (c.cq().poll(wc) == 1) return wc[0];
        throw new AssertionError("no completion");
    }
}
