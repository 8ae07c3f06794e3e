package com.example.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.junit.SoftRnicTest;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/**
 * Fails on purpose, to show what a failure prints (the README and docs/library.md copy it). Run it with
 * mvn test -Dtest=OffByOneTest -Djunit.jupiter.conditions.deactivate=org.junit.*DisabledCondition
 */
@SoftRnicTest
class OffByOneTest {
    @Test
    @Disabled("fails on purpose: it shows what softrnic prints when a test fails")
    void aWriteOneBytePastTheRemoteBuffer(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared(); RcPair rc = new RcPair(a, b, arena, 4096)) {
            SendWr wr = new SendWr(1).sge(rc.local.addr(), 4096, rc.local.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = rc.peer.addr() + 1; // the bug: the buffer is 4096 bytes, the WRITE ends one byte past it
            wr.rkey = rc.peer.rkey();
            rc.qpA.postSend(wr);
            assertEquals(WcStatus.SUCCESS, rc.completion().status);
        }
    }
}
