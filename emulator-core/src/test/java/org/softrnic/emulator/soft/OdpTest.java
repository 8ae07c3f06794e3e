package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.Sge;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * On-demand paging on the soft provider, as ConnectX has it: pages start unmapped, the first touch is a page fault
 * (RNR NAK for a WRITE or SEND, a dropped READ that the requester's timer sends again, a requester that waits for its
 * own buffers), an invalidation makes the next touch fault again, memory that is gone ends the access in error, and
 * prefetch maps ahead. Each on the virtual fabric, where the 500 µs fault takes no wall-clock time.
 */
class OdpTest {
    private static final int ODP_ACCESS = ApiPair.ALL_ACCESS | Access.ON_DEMAND;

    private static SendWr write(MemoryRegion local, MemoryRegion remote, long remoteAddr, int length, long wrId) {
        SendWr wr = new SendWr(1).sge(local.addr(), length, local.lkey());
        wr.opcode = SendOpcode.RDMA_WRITE;
        wr.wrId = wrId;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = remoteAddr;
        wr.rkey = remote.rkey();
        return wr;
    }

    private static long counter(SoftRnic dev, String name) {
        return dev.counters().getOrDefault(name, 0L);
    }

    @Test
    void aWriteIntoAnOdpRegionFaultsWithAnRnrNakThenLands() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            long locked = p.devB.lockedBytes();
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(64 * 1024, 4096), ODP_ACCESS));
            assertEquals(locked, p.devB.lockedBytes(), "an ODP region pins nothing");
            p.memA().fill((byte) 0x5a);
            p.qpA.postSend(write(p.mrA, odp, odp.addr() + 4096, 8192, 1));
            ApiPair.awaitOk(p.cqA);
            assertEquals(0x5a, odp.segment().get(ValueLayout.JAVA_BYTE, 4096 + 8191));
            assertEquals(0, odp.segment().get(ValueLayout.JAVA_BYTE, 4095), "nothing outside the WRITE");
            assertEquals(1, counter(p.devB, "send_rnr_err"), "one RNR NAK while the fault was served");
            assertEquals(1, counter(p.devA, "rcvd_rnr_err"));
            assertEquals(2, counter(p.devB, "page_faults"), "two pages");
            var s = p.devB.odpStats(odp);
            assertEquals(2, s.pageFaults());
            assertEquals(2, s.pagesMapped());

            // mapped now: the same pages take no fault
            p.qpA.postSend(write(p.mrA, odp, odp.addr() + 4096, 8192, 2));
            ApiPair.awaitOk(p.cqA);
            assertEquals(1, counter(p.devB, "send_rnr_err"));

            // invalidated (the memory migrated, or a test says so): the next touch faults again
            assertEquals(2, p.devB.odpInvalidate(odp, odp.addr(), 64 * 1024));
            assertEquals(0, p.devB.odpStats(odp).pagesMapped());
            p.qpA.postSend(write(p.mrA, odp, odp.addr() + 4096, 100, 3));
            ApiPair.awaitOk(p.cqA);
            assertEquals(2, counter(p.devB, "send_rnr_err"));
            assertEquals(3, counter(p.devB, "page_faults"));
            assertEquals(2, counter(p.devB, "page_invalidations"));
            assertTrue(p.devB.refusals().stream().anyMatch(r -> r.contains("a page fault is being served")), p.devB.refusals().toString());
        }
    }

    @Test
    void aWriteAfterTheMemoryIsGoneCompletesInErrorAndTouchesNothing() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024)) {
            Arena gone = Arena.ofShared();
            MemoryRegion odp = p.keep(p.pdB.regMr(gone.allocate(16 * 1024, 4096), ODP_ACCESS));
            p.qpA.postSend(write(p.mrA, odp, odp.addr(), 4096, 1));
            ApiPair.awaitOk(p.cqA);
            gone.close(); // munmap under a registered ODP region: the kernel invalidates, the next fault finds nothing
            p.qpA.postSend(write(p.mrA, odp, odp.addr(), 4096, 2));
            WorkCompletion wc = ApiPair.await(p.cqA, 1).getFirst();
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status);
            assertEquals(1, counter(p.devB, "page_invalidations"), "the page it had mapped");
            assertTrue(p.devB.refusals().stream().anyMatch(r -> r.contains("freed")), p.devB.refusals().toString());
        }
    }

    @Test
    void aReadOfUnmappedPagesIsDroppedAndTheRetryFindsThemMapped() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(8192, 4096), ODP_ACCESS));
            odp.segment().fill((byte) 7);
            SendWr read = write(p.mrA, odp, odp.addr(), 8192, 1);
            read.opcode = SendOpcode.RDMA_READ;
            p.qpA.postSend(read);
            ApiPair.awaitOk(p.cqA);
            assertEquals(7, p.memA().get(ValueLayout.JAVA_BYTE, 8191));
            assertEquals(0, counter(p.devB, "send_rnr_err"), "no RNR NAK answers a READ");
            assertEquals(2, counter(p.devB, "page_faults"));
            assertTrue(counter(p.devA, "completer_retry_err") >= 1, "the requester's timer sent it again: " + p.devA.counters());
        }
    }

    @Test
    void aRequesterWaitsForItsOwnOdpBuffersAndPrefetchMapsAhead() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion local = p.keep(p.pdA.regMr(arena.allocate(3 * 4096, 4096), ODP_ACCESS));
            local.segment().fill((byte) 9);
            p.qpA.postSend(write(local, p.mrB, p.mrB.addr(), 3 * 4096, 1));
            ApiPair.awaitOk(p.cqA);
            assertEquals(9, p.memB().get(ValueLayout.JAVA_BYTE, 3 * 4096 - 1));
            assertEquals(3, counter(p.devA, "page_faults"), "the gather list's three pages");
            assertEquals(0, counter(p.devB, "send_rnr_err"));

            // prefetched with FLUSH (mapped when the call returns), a region's first WRITE takes no fault
            MemoryRegion remote = p.keep(p.pdB.regMr(arena.allocate(4 * 4096, 4096), ODP_ACCESS));
            p.pdB.adviseMr(org.softrnic.verbs.ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH_WRITE, ProtectionDomain.ADVISE_MR_FLAG_FLUSH,
                    new Sge().set(remote.addr(), 4 * 4096, remote.lkey()));
            assertEquals(4, counter(p.devB, "page_prefetch"));
            p.qpA.postSend(write(p.mrA, remote, remote.addr(), 4 * 4096, 2));
            ApiPair.awaitOk(p.cqA);
            assertEquals(0, counter(p.devB, "send_rnr_err"));
            assertEquals(0, counter(p.devB, "page_faults"));
            assertEquals(4, p.devB.odpStats(remote).pagePrefetch());

            VerbsException pinned = assertThrows(VerbsException.class, () -> p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, 0,
                    new Sge().set(p.mrB.addr(), 4096, p.mrB.lkey())));
            assertEquals(Errno.EINVAL, pinned.errno());
            VerbsException outside = assertThrows(VerbsException.class, () -> p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, 0,
                    new Sge().set(remote.addr() + 4096, 4 * 4096, remote.lkey())));
            assertEquals(Errno.EFAULT, outside.errno());
        }
    }

    @Test
    void aSendIntoAnOdpReceiveFaultsToo() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(4096, 4096), ODP_ACCESS));
            RecvWr recv = new RecvWr(1);
            recv.wrId = 5;
            recv.numSge = 1;
            recv.sgList[0].set(odp.addr(), 4096, odp.lkey());
            p.qpB.postRecv(recv);
            p.memA().fill((byte) 3);
            SendWr send = write(p.mrA, p.mrB, 0, 1000, 1);
            send.opcode = SendOpcode.SEND;
            p.qpA.postSend(send);
            ApiPair.awaitOk(p.cqA);
            WorkCompletion got = ApiPair.awaitOk(p.cqB);
            assertEquals(1000, got.byteLen);
            assertEquals(3, odp.segment().get(ValueLayout.JAVA_BYTE, 999));
            assertEquals(1, counter(p.devB, "send_rnr_err"));
            assertEquals(1, counter(p.devB, "page_faults"));
        }
    }

    @Test
    void anImplicitRegionReachesTheMemoryItIsShownAndNoMore() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion all = p.keep(p.pdB.regImplicitOdpMr(ODP_ACCESS));
            assertEquals(0, all.addr());
            assertEquals(-1, all.length(), "SIZE_MAX");
            Arena freed = Arena.ofShared();
            MemorySegment x = arena.allocate(8192, 4096);
            MemorySegment y = freed.allocate(4096, 4096);
            all.cover(x);
            all.cover(y);
            p.memA().fill((byte) 4);
            p.qpA.postSend(write(p.mrA, all, x.address() + 4096, 4096, 1));
            ApiPair.awaitOk(p.cqA);
            assertEquals(4, x.get(ValueLayout.JAVA_BYTE, 8191));
            assertEquals(1, counter(p.devB, "page_faults"));
            assertEquals(1, p.devB.odpStats(all).pageFaults());
            p.qpA.postSend(write(p.mrA, all, y.address(), 4096, 2));
            ApiPair.awaitOk(p.cqA);
            freed.close();
            p.qpA.postSend(write(p.mrA, all, y.address(), 64, 3));
            List<WorkCompletion> wc = ApiPair.await(p.cqA, 1);
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.getFirst().status, "the memory shown is gone");
            assertEquals(1, counter(p.devB, "page_invalidations"));
            all.cover(arena.allocate(4096, 4096)); // drops the freed part: its counts stay the region's
            assertEquals(2, p.devB.odpStats(all).pageFaults());
            VerbsException overlap = assertThrows(VerbsException.class, () -> all.cover(x.asSlice(4096)));
            assertEquals(Errno.EINVAL, overlap.errno());
        }
    }

    @Test
    void aFaultServedInNoTimeHoldsNothingUp() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024, b -> b.odpFaultNs(0));
             Arena arena = Arena.ofShared()) {
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(8192, 4096), ODP_ACCESS));
            p.qpA.postSend(write(p.mrA, odp, odp.addr(), 8192, 1));
            ApiPair.awaitOk(p.cqA);
            assertEquals(2, counter(p.devB, "page_faults"), "faulted");
            assertEquals(0, counter(p.devB, "send_rnr_err"), "and mapped at once");
        }
    }

    @Test
    void invalidationTakesLengthsAsTheKernelDoes() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(64 * 4096, 4096), ODP_ACCESS));
            p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, ProtectionDomain.ADVISE_MR_FLAG_FLUSH,
                    new Sge().set(odp.addr(), 64 * 4096, odp.lkey()));
            assertEquals(64, p.devB.odpInvalidate(odp, odp.addr(), 1L << 45), "a length past the region drops all of it");
            MemoryRegion all = p.keep(p.pdB.regImplicitOdpMr(ODP_ACCESS));
            MemorySegment x = arena.allocate(4 * 4096, 4096);
            all.cover(x);
            p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, ProtectionDomain.ADVISE_MR_FLAG_FLUSH,
                    new Sge().set(x.address(), 4 * 4096, all.lkey()));
            assertEquals(4, p.devB.odpStats(all).pagesMapped());
            assertEquals(4, p.devB.odpInvalidate(all, all.addr(), all.length()), "SIZE_MAX from 0: everything");
            VerbsException empty = assertThrows(VerbsException.class, () -> all.cover(x.asSlice(0, 0)));
            assertEquals(Errno.EINVAL, empty.errno());
        }
    }

    @Test
    void aSynchronousPrefetchMapsPagesWhoseFaultIsUnderWay() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion odp = p.keep(p.pdB.regMr(arena.allocate(4096, 4096), ODP_ACCESS));
            Sge page = new Sge().set(odp.addr(), 4096, odp.lkey());
            p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, 0, page); // under way for a fault's time
            p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, ProtectionDomain.ADVISE_MR_FLAG_FLUSH, page);
            p.qpA.postSend(write(p.mrA, odp, odp.addr(), 64, 1));
            ApiPair.awaitOk(p.cqA);
            assertEquals(0, counter(p.devB, "send_rnr_err"), "FLUSH returned with the page mapped");
            assertEquals(1, counter(p.devB, "page_prefetch"));
            VerbsException second = assertThrows(VerbsException.class, () -> p.pdB.adviseMr(ProtectionDomain.ADVISE_MR_ADVICE_PREFETCH, 0,
                    page, new Sge().set(p.mrB.addr(), 64, p.mrB.lkey())));
            assertEquals(Errno.EINVAL, second.errno(), "a pinned region in the list refuses the whole list");
        }
    }

    @Test
    void theFaultsTimeIsConfigured() {
        var config = org.softrnic.emulator.config.ConfigFiles.parseYaml("name: odp\ngids: [10.7.0.9]\nodp_fault_ns: 100000\n");
        assertEquals(100_000, config.odpFaultNs());
        assertEquals(500_000, org.softrnic.emulator.config.SoftRnicConfig.builder().gid("10.7.0.9").build().odpFaultNs());
        assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> org.softrnic.emulator.config.ConfigFiles.parseYaml("name: odp\ngids: [10.7.0.9]\nodp_fault_ns: -1\n"));
    }

    @Test
    void anImplicitRegionRefusesAddressesItWasNotShown() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, FaultConfig.NONE, Mtu.MTU_1024); Arena arena = Arena.ofShared()) {
            MemoryRegion all = p.keep(p.pdB.regImplicitOdpMr(ODP_ACCESS));
            MemorySegment x = arena.allocate(4096, 4096);
            all.cover(x);
            p.qpA.postSend(write(p.mrA, all, x.address() + 4000, 200, 1));
            assertEquals(WcStatus.REM_ACCESS_ERR, ApiPair.await(p.cqA, 1).getFirst().status);
            assertTrue(p.devB.refusals().stream().anyMatch(r -> r.contains("no memory at that address")), p.devB.refusals().toString());
            VerbsException noFlag = assertThrows(VerbsException.class, () -> p.pdB.regImplicitOdpMr(ApiPair.ALL_ACCESS));
            assertEquals(Errno.EINVAL, noFlag.errno());
        }
    }
}
