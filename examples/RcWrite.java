// A complete RC program on the softrnic verbs API: two soft RNICs on the threaded in-process fabric,
// one RDMA WRITE with immediate, one RDMA READ back and one fetch-and-add, checked byte for byte.
// Run with JDK 25: java -cp cli/target/softrnic.jar examples/RcWrite.java
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Endpoint;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevices;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

public class RcWrite {
    static final int SIZE = 64 * 1024;

    public static void main(String[] args) throws Exception {
        try (SoftFabric fabric = SoftFabric.threaded()) {
            fabric.add(SoftRnicConfig.builder().name("rnic0").gid("10.0.0.1").mtu(4096).build());
            fabric.add(SoftRnicConfig.builder().name("rnic1").gid("10.0.0.2").mtu(4096).build());
            System.out.println("devices: " + RdmaDevices.list().stream().map(d -> d.name()).toList());
            try (Arena arena = Arena.ofShared(); // shared: the device's own thread reads and writes it
                 RdmaContext a = RdmaDevices.byName("rnic0").open();
                 RdmaContext b = RdmaDevices.byName("rnic1").open();
                 ProtectionDomain pdA = a.allocPd();
                 ProtectionDomain pdB = b.allocPd();
                 CompletionQueue cqA = a.createCq(256);
                 CompletionQueue cqB = b.createCq(256);
                 MemoryRegion local = pdA.regMr(arena.allocate(SIZE, 4096), Access.LOCAL_WRITE);
                 MemoryRegion remote = pdB.regMr(arena.allocate(SIZE, 4096),
                         Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
                 QueuePair qpA = pdA.createQp(QpInitAttr.rc(cqA, new QpCaps(64, 64, 1, 1, 0)));
                 QueuePair qpB = pdB.createQp(QpInitAttr.rc(cqB, new QpCaps(64, 64, 1, 1, 0)))) {
                // what each side would send the other out of band (as JSON or bytes), then one call each
                Endpoint endA = Endpoint.of(a, qpA);
                Endpoint endB = Endpoint.of(b, qpB).withRegion(remote);
                qpA.connect(endA, Endpoint.fromJson(endB.toJson()));
                qpB.connect(endB, Endpoint.fromJson(endA.toJson()));

                // the responder posts a receive for the immediate data
                RecvWr recv = new RecvWr(1);
                recv.wrId = 7;
                qpB.postRecv(recv);

                for (int i = 0; i < SIZE; i++) local.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
                SendWr wr = new SendWr(1).sge(local.addr(), SIZE, local.lkey());
                wr.wrId = 1;
                wr.opcode = SendOpcode.RDMA_WRITE_WITH_IMM;
                wr.sendFlags = SendFlags.SIGNALED;
                wr.immData = 0x1234;
                wr.remoteAddr = endB.addr();
                wr.rkey = endB.rkey();
                qpA.postSend(wr);

                WorkCompletion[] wc = {new WorkCompletion()};
                System.out.println("requester: " + await(cqA, wc));
                System.out.println("responder: " + await(cqB, wc));
                long mismatch = MemorySegment.mismatch(local.segment(), 0, SIZE, remote.segment(), 0, SIZE);
                System.out.println("remote memory equals local: " + (mismatch == -1));

                // read it back over the local copy, after clearing it
                local.segment().fill((byte) 0);
                wr.wrId = 2;
                wr.opcode = SendOpcode.RDMA_READ;
                qpA.postSend(wr);
                System.out.println("read: " + await(cqA, wc));
                mismatch = MemorySegment.mismatch(local.segment(), 0, SIZE, remote.segment(), 0, SIZE);
                System.out.println("read back equals remote: " + (mismatch == -1));

                // fetch-and-add on the first 8 bytes of the remote buffer
                long before = remote.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                wr.wrId = 3;
                wr.opcode = SendOpcode.ATOMIC_FETCH_AND_ADD;
                wr.sgList[0].length = 8;
                wr.compareAdd = 5;
                qpA.postSend(wr);
                System.out.println("atomic: " + await(cqA, wc));
                long fetched = local.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                long after = remote.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                System.out.println("fetched original: " + (fetched == before) + ", added 5: " + (after == before + 5));
                System.out.println("rnic0 sent_pkts " + fabric.devices().get(0).counters().get("sent_pkts"));
            }
        }
    }

    static WorkCompletion await(CompletionQueue cq, WorkCompletion[] wc) {
        while (cq.poll(wc) == 0) Thread.onSpinWait();
        if (wc[0].status != WcStatus.SUCCESS) throw new IllegalStateException("failed: " + wc[0]);
        return wc[0];
    }
}
