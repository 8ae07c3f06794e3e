package com.example.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.junit.Faults;
import org.softrnic.emulator.junit.SoftRnicRun;
import org.softrnic.emulator.junit.SoftRnicTest;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** An RC WRITE and a SEND with immediate data between two soft RNICs, byte for byte; once under 5 % loss. */
@SoftRnicTest
class RdmaWriteTest {
    @Test
    void aWriteLandsByteForByte(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared(); RcPair rc = new RcPair(a, b, arena, 1 << 20)) {
            rc.fill(42);
            assertEquals(WcStatus.SUCCESS, rc.post(SendOpcode.RDMA_WRITE, 1 << 20).status);
            assertEquals(-1, rc.local.segment().mismatch(rc.remote.segment()));
        }
    }

    @Test
    void aSendWithImmediateDataReachesTheReceiver(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared(); RcPair rc = new RcPair(a, b, arena, 4096)) {
            rc.fill(7);
            rc.postReceive();
            assertEquals(WcStatus.SUCCESS, rc.post(SendOpcode.SEND_WITH_IMM, 4096).status);
            WorkCompletion got = rc.received();
            assertEquals(WcOpcode.RECV, got.opcode);
            assertEquals(RcPair.IMM, got.immData);
            assertEquals(-1, rc.local.segment().mismatch(rc.remote.segment()));
        }
    }

    @Test
    @Faults(loss = 0.05)
    void aWriteSurvivesFivePercentLoss(RdmaContext a, RdmaContext b, SoftRnicRun run) {
        try (Arena arena = Arena.ofShared(); RcPair rc = new RcPair(a, b, arena, 1 << 20)) {
            rc.fill(3);
            assertEquals(WcStatus.SUCCESS, rc.post(SendOpcode.RDMA_WRITE, 1 << 20).status);
            assertEquals(-1, rc.local.segment().mismatch(rc.remote.segment()));
        }
        assertTrue(run.dropped() > 0, "the loss never happened: " + run.faults()); // else the test proved nothing
    }
}
