package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.PacketBuffer;

/**
 * A port whose every poll fails, as a frame port's does once qemu has closed the link (CI saw softrnic's
 * pingpong server poll for ever after the rxe guest ended): the device's timers still run, so a WRITE that
 * can no longer be acknowledged ends in IBV_WC_RETRY_EXC_ERR, and the failures are counted.
 */
class FailingPortTest {
    @Test
    void aRequestStillTimesOutWhenThePortFailsEveryPoll() {
        try (Arena arena = Arena.ofConfined()) {
            Port port = new Closed(arena);
            Nic nic = new Nic(NicConfig.of("failing", Gid.parse("10.9.0.1"), 1), System::nanoTime, port, arena);
            ProtectionDomain pd = nic.allocPd();
            MemoryRegion mr = nic.regMr(pd, arena.allocate(4096, 8), Access.LOCAL_WRITE);
            CompletionQueue cq = nic.createCq(4);
            QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, null, QpCaps.of(4, 4), false);
            QpAttr attr = QpAttr.rcConnect(Gid.parse("10.9.0.2"), 0x11, Mtu.MTU_1024);
            attr.timeout = 8; // about 1 ms
            attr.retryCnt = 1;
            nic.modifyToRts(qp, attr);
            SendWr wr = new SendWr(1).sge(mr.iova(), 4096, mr.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = 0x1000;
            wr.rkey = 0x1234;
            nic.postSend(qp, wr);

            PollingRunner runner = new PollingRunner(new DeviceAgent(nic, port));
            WorkCompletion[] wc = {new WorkCompletion()};
            long end = System.nanoTime() + 10_000_000_000L;
            while (cq.poll(wc) == 0) {
                assertTrue(System.nanoTime() < end, "no completion 10 s after the port began to fail");
                runner.idle();
            }
            assertEquals(WcStatus.RETRY_EXC_ERR, wc[0].status, wc[0].toString());
            assertTrue(runner.agent().failures() > 0, "every failed poll is counted");
        }
    }

    /** Sends into nothing; every poll fails as a closed qemu link does. */
    private record Closed(Arena arena) implements Port {
        @Override
        public boolean transmit(PacketBuffer buffer, int offset, int length) {
            return true;
        }

        @Override
        public int poll(org.softrnic.nic.PacketReceiver nic, int budget) {
            throw new UncheckedIOException("frame port: qemu closed the link", new IOException("closed"));
        }

        @Override
        public void await(long deadline, BooleanSupplier idle) {
        }

        @Override
        public void wakeup() {
        }

        @Override
        public LinkProfile profile() {
            return LinkProfile.FRAMES;
        }

        @Override
        public long dropped() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
