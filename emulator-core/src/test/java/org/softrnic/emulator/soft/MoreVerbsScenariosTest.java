package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** The API's own paths through the model: inline data, address handles, SRQs and memory windows. */
class MoreVerbsScenariosTest {
    private static RecvWr recv(long id, MemoryRegion mr, long offset, int length) {
        RecvWr r = new RecvWr(1);
        r.wrId = id;
        r.numSge = 1;
        r.sgList[0].set(mr.addr() + offset, length, mr.lkey());
        return r;
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void inlineDataIsCopiedWhenPostedSoTheBufferIsFreeAtOnce(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            p.qpB.postRecv(recv(1, p.mrB, 0, 64));
            for (int i = 0; i < 48; i++) p.memA().set(ValueLayout.JAVA_BYTE, i, (byte) (100 + i));
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 48, p.mrA.lkey());
            wr.opcode = SendOpcode.SEND;
            wr.sendFlags = SendFlags.SIGNALED | SendFlags.INLINE;
            p.qpA.postSend(wr);
            p.memA().fill((byte) 0); // reused at once: the inline copy was taken by postSend
            WorkCompletion got = ApiPair.awaitOk(p.cqB);
            assertEquals(48, got.byteLen);
            for (int i = 0; i < 48; i++) assertEquals((byte) (100 + i), p.memB().get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            ApiPair.awaitOk(p.cqA);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void udDatagramsGoThroughAnAddressHandleWithTheGrhInFront(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            QueuePair udA = p.keep(p.pdA.createQp(new QpInitAttr(QpType.UD, p.cqA, p.cqA, null, QpCaps.of(8, 8), false)));
            QueuePair udB = p.keep(p.pdB.createQp(new QpInitAttr(QpType.UD, p.cqB, p.cqB, null, QpCaps.of(8, 8), false)));
            for (QueuePair qp : List.of(udA, udB)) {
                QpAttr attr = new QpAttr();
                attr.qkey = 0x1234567;
                qp.modifyToRts(attr);
            }
            udB.postRecv(recv(9, p.mrB, 8192, 40 + 300));
            int port = kind == ApiPair.Kind.UDP || kind == ApiPair.Kind.UDP_INLINE ? p.devB.rocePort() : 0;
            var ah = p.keep(p.pdA.createAh(AddressVector.to(p.b.queryGid(1, 0)).withUdpPort(port)));
            for (int i = 0; i < 300; i++) p.memA().set(ValueLayout.JAVA_BYTE, 4096 + i, (byte) i);
            SendWr wr = new SendWr(1).sge(p.mrA.addr() + 4096, 300, p.mrA.lkey());
            wr.opcode = SendOpcode.SEND;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.ah = ah;
            wr.remoteQpn = udB.qpn();
            wr.remoteQkey = 0x1234567;
            udA.postSend(wr);
            WorkCompletion got = ApiPair.awaitOk(p.cqB);
            assertEquals(9, got.wrId);
            assertEquals(40 + 300, got.byteLen, "a UD receive counts the 40-byte GRH");
            assertEquals(udA.qpn(), got.srcQp);
            assertEquals(WorkCompletion.WC_GRH, got.wcFlags & WorkCompletion.WC_GRH);
            assertEquals(-1, MemorySegment.mismatch(p.memA(), 4096, 4096 + 300, p.memB(), 8192 + 40, 8192 + 40 + 300));
            ApiPair.awaitOk(p.cqA);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void oneSrqFeedsTwoQps(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            SharedReceiveQueue srq = p.keep(p.pdB.createSrq(16, 1, 0));
            QueuePair[] b = new QueuePair[2];
            QueuePair[] a = new QueuePair[2];
            for (int i = 0; i < 2; i++) {
                b[i] = p.keep(p.pdB.createQp(new QpInitAttr(QpType.RC, p.cqB, p.cqB, srq, QpCaps.of(4, 1), false)));
                a[i] = p.keep(p.pdA.createQp(QpInitAttr.rc(p.cqA, QpCaps.of(4, 1))));
                a[i].modifyToRts(p.connect(p.b, b[i], Mtu.MTU_1024));
                b[i].modifyToRts(p.connect(p.a, a[i], Mtu.MTU_1024));
            }
            for (int i = 0; i < 4; i++) srq.postRecv(recv(50 + i, p.mrB, 1024L * i, 1024));
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 100, p.mrA.lkey());
            wr.opcode = SendOpcode.SEND;
            wr.sendFlags = SendFlags.SIGNALED;
            for (int i = 0; i < 4; i++) a[i % 2].postSend(wr);
            List<WorkCompletion> got = ApiPair.await(p.cqB, 4);
            assertEquals(List.of(50L, 51L, 52L, 53L), got.stream().map(w -> w.wrId).sorted().toList(), "each SRQ entry used once");
            assertEquals(2, got.stream().map(w -> w.qpNum).distinct().count(), "by both QPs");
            ApiPair.await(p.cqA, 4).forEach(w -> assertEquals(WcStatus.SUCCESS, w.status));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void aType2WindowGrantsRemoteWritesInsideItAndNowhereElse(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            MemoryRegion target = p.keep(p.pdB.regMr(p.memB().asSlice(1 << 19, 1 << 16), Access.LOCAL_WRITE | Access.MW_BIND));
            MemoryWindow mw = p.keep(p.pdB.allocMw(2));
            SendWr bind = new SendWr(0);
            bind.opcode = SendOpcode.BIND_MW;
            bind.sendFlags = SendFlags.SIGNALED;
            bind.bindMw = mw;
            bind.bindRkey = (mw.rkey() & ~0xff) | ((mw.rkey() + 1) & 0xff); // ibv_inc_rkey
            bind.bindMr = target;
            bind.bindAddr = target.addr() + 4096;
            bind.bindLength = 8192;
            bind.bindAccess = Access.REMOTE_WRITE;
            p.qpB.postSend(bind);
            assertEquals(WcOpcode.BIND_MW, ApiPair.awaitOk(p.cqB).opcode);
            assertEquals(bind.bindRkey, mw.rkey(), "the window carries its new rkey");

            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 8192, p.mrA.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = target.addr() + 4096;
            wr.rkey = mw.rkey();
            p.memA().fill((byte) 0x5a);
            p.qpA.postSend(wr);
            ApiPair.awaitOk(p.cqA);
            assertEquals((byte) 0x5a, target.segment().get(ValueLayout.JAVA_BYTE, 4096 + 8191));
            assertEquals(0, target.segment().get(ValueLayout.JAVA_BYTE, 4096 + 8192), "nothing past the window");

            wr.remoteAddr = target.addr() + 4096 + 1; // one byte over the window's end
            p.qpA.postSend(wr);
            assertEquals(WcStatus.REM_ACCESS_ERR, ApiPair.await(p.cqA, 1).getFirst().status);
            assertTrue(target.segment().get(ValueLayout.JAVA_BYTE, 4096 + 8192) == 0);
        }
    }
}
