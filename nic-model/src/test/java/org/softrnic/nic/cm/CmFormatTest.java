package org.softrnic.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.mad.CmaHeader;

/** The messages as rxe's kernel puts them on the wire: byte for byte against the REQ and REP of a real rping capture. */
class CmFormatTest {
    /** CAP-R #15 of ../shared/specs/rdma-cm.md §3.1: rping's REQ from 192.0.2.2 to 192.0.2.1 (bytes 200-255 zero). */
    private static final String REQ = String.join("",
            "0107020300000000000000024ac0f8b60010000000000000b6f8c04a00000000",
            "0000000001061c06505400fffe12340200000000000000000000110100000001",
            "000000a095459ba7ffff37f0ffffffff00000000000000000000ffffc0000202",
            "00000000000000000000ffffc0000201c867d000004000980000000000000000",
            "0".repeat(64),
            "000000000040eaa9000000000000000000000000c00002020000000000000000",
            "00000000c0000201000000000000000000000000000000000000000000000000",
            "0".repeat(64));

    @Test
    void aReqIsByteForByteTheKernelsForRping() throws Exception {
        IbCmId id = new IbCmId(0xb6f8c04a, null);
        id.tid = CmAgent.tid(id);
        byte[] pd = new byte[CmaHeader.SIZE];
        new CmaHeader(0, 4, 0xeaa9, InetAddress.getByName("192.0.2.2"), InetAddress.getByName("192.0.2.1"))
                .write(MemorySegment.ofArray(pd), 0);
        CmReq r = new CmReq(CmaHeader.serviceId(CmaHeader.PS_TCP, 7174), 0x11, 0, 0x95459b, 1, 1, 7, 7, false,
                Mtu.MTU_1024, Gid.parse("192.0.2.2"), Gid.parse("192.0.2.1"), 0xC867D, 0, 64,
                CmTimeouts.CMA_IBOE_PACKET_LIFETIME, CmTimeouts.CMA_CM_RESPONSE_TIMEOUT,
                CmTimeouts.CMA_CM_RESPONSE_TIMEOUT, CmTimeouts.CMA_MAX_CM_RETRIES, pd);
        assertEquals(REQ, HexFormat.of().formatHex(CmFormat.req(id, r, 0x505400FFFE123402L)));
    }

    /** CAP-R #16, bytes 0-59 (the rest zero): the REP answering it. */
    @Test
    void aRepIsByteForByteTheKernelsForRping() {
        IbCmId id = new IbCmId(0x16690d7c, null);
        id.remoteId = 0xb6f8c04a;
        id.tid = 0x000000024ac0f8b6L; // the REQ's
        CmRep r = new CmRep(0x11, 0x48451d, 1, 1, 7, false, CmTimeouts.LOCAL_CA_ACK_DELAY, null);
        String rep = "0107020300000000000000024ac0f8b6001300000000000016690d7cb6f8c04a"
                + "00000000000011000000000048451d00010178e0505400fffe123401";
        assertEquals(rep + "00".repeat(256 - 60), HexFormat.of().formatHex(CmFormat.rep(id, r, 0x505400FFFE123401L)));
    }
}
