// rping's client on softrnic's rdma_cm API: connect to an rping server (librdmacm's `rping -s`, or `softrnic
// rping -s`), let it READ our buffer and WRITE it back into another, compare the two, disconnect.
// Run with JDK 25: java -cp cli/target/softrnic.jar examples/CmRping.java OUR-IP SERVER-IP
import java.lang.foreign.*;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.time.Duration;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.*;
import org.softrnic.verbs.cm.*;

public class CmRping {
    static final Duration WAIT = Duration.ofSeconds(30);

    public static void main(String[] args) throws Exception {
        try (SoftRnic nic = SoftRnic.open(SoftRnicConfig.builder().name("rping0").gid(args[0]).link("udp:" + args[0]).build());
             Arena arena = Arena.ofShared(); EventChannel ch = RdmaCm.createEventChannel(); CmId id = ch.createId(PortSpace.TCP)) {
            id.resolveAddr(null, new InetSocketAddress(args[1], 7174), WAIT);
            expect(ch, CmEventType.ADDR_RESOLVED);
            id.resolveRoute(WAIT);
            expect(ch, CmEventType.ROUTE_RESOLVED);
            try (ProtectionDomain pd = id.verbs().allocPd(); CompletionQueue cq = id.verbs().createCq(8);
                 MemoryRegion mr = pd.regMr(arena.allocate(160), Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
                 QueuePair qp = id.createQp(pd, QpInitAttr.rc(cq, new QpCaps(4, 4, 1, 1, 0)))) {
                MemorySegment m = mr.segment(); // 0: start buffer, 64: RDMA buffer, 128: what we send, 144: what comes
                m.setString(0, "rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr");
                RecvWr recv = new RecvWr(1).sge(mr.addr() + 144, 16, mr.lkey());
                qp.postRecv(recv);
                id.connect(ConnParam.DEFAULT.withDepths(1, 1));
                expect(ch, CmEventType.ESTABLISHED);
                for (long buffer : new long[] {0, 64}) { // the server READs the first, then WRITEs into the second
                    m.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 128, mr.addr() + buffer);
                    m.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 136, mr.rkey());
                    m.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 140, 64);
                    SendWr send = new SendWr(1).sge(mr.addr() + 128, 16, mr.lkey());
                    send.opcode = SendOpcode.SEND;
                    send.sendFlags = SendFlags.SIGNALED;
                    qp.postSend(send);
                    await(cq, 2); // our SEND, and the server's "go ahead"
                    qp.postRecv(recv);
                }
                System.out.println("ping data: " + m.getString(64) + "; as sent: " + (m.asSlice(0, 64).mismatch(m.asSlice(64, 64)) == -1));
                id.disconnect();
                expect(ch, CmEventType.DISCONNECTED);
            }
        }
    }

    static void expect(EventChannel ch, CmEventType type) throws InterruptedException {
        CmEvent e = ch.getEvent(WAIT);
        if (e == null || e.type() != type) throw new IllegalStateException("wanted " + type + ", got " + e);
    }

    static void await(CompletionQueue cq, int n) {
        WorkCompletion[] wc = {new WorkCompletion()};
        for (long end = System.nanoTime() + WAIT.toNanos(); n > 0; ) {
            if (cq.poll(wc) == 1 && n-- > 0 && wc[0].status != WcStatus.SUCCESS) throw new IllegalStateException(wc[0].toString());
            if (System.nanoTime() > end) throw new IllegalStateException("no completion within " + WAIT);
        }
    }
}
