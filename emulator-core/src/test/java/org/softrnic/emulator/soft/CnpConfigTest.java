package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/** {@code cnp: firmware} in a device's configuration makes it a notification point; without it, as rxe, none. */
class CnpConfigTest {
    @Test
    void aDeviceConfiguredWithCnpAnswersCeMarksThroughTheVerbsApi() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(3); Arena arena = Arena.ofShared()) {
            FaultConfig congested = new FaultConfig(null, null, null, 1_000L, null, 1.0, 5L); // every ECT packet CE
            SoftRnic a = fabric.add(SoftRnicConfig.builder().name("a").gid("10.2.0.1").faults(congested).build());
            SoftRnic b = fabric.add(SoftRnicConfig.builder().name("b").gid("10.2.0.2").cnp("firmware").build());
            try (var ca = a.open(); var cb = b.open();
                 var pdA = ca.allocPd(); var pdB = cb.allocPd();
                 var cqA = ca.createCq(16); var cqB = cb.createCq(16);
                 var mrA = pdA.regMr(arena.allocate(65536, 4096), Access.LOCAL_WRITE);
                 var mrB = pdB.regMr(arena.allocate(65536, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                 var qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(8, 8)));
                 var qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(8, 8)))) {
                QpAttr toB = QpAttr.rcConnect(cb.queryGid(1, 0), qpB.qpn(), Mtu.MTU_1024);
                toB.ahAttr = new AddressVector(toB.ahAttr.dgid(), 0, 0, 64, (26 << 2) | 0b10); // ECT(0)
                qpA.modifyToRts(toB);
                qpB.modifyToRts(QpAttr.rcConnect(ca.queryGid(1, 0), qpA.qpn(), Mtu.MTU_1024));
                SendWr w = new SendWr(1).sge(mrA.addr(), 65536, mrA.lkey());
                w.opcode = SendOpcode.RDMA_WRITE;
                w.sendFlags = SendFlags.SIGNALED;
                w.remoteAddr = mrB.addr();
                w.rkey = mrB.rkey();
                qpA.postSend(w);
                var wc = ApiPair.await(cqA, 1);
                assertEquals(WcStatus.SUCCESS, wc.getFirst().status);
                assertEquals(64L, b.counters().get("np_ecn_marked_roce_packets"));
                assertTrue(b.counters().get("np_cnp_sent") >= 1, b.counters().toString());
                assertEquals(b.counters().get("np_cnp_sent"), a.counters().get("rp_cnp_ignored"), "every CNP reached A");
                assertEquals(0L, a.counters().get("np_cnp_sent"), "A is not configured as a notification point");
            }
            a.close();
            b.close();
        }
    }

    @Test
    void dcqcnKeysNameTheProfileAndItsParametersByFirmwareName() throws Exception {
        java.nio.file.Path yaml = java.nio.file.Files.createTempFile("dcqcn", ".yaml");
        try {
            java.nio.file.Files.writeString(yaml, "name: rp\ngids: [10.2.0.9]\ndcqcn: firmware\nline_gbps: 25\n"
                    + "dcqcn_params:\n  rpg_ai_rate: 8\n  rpg_time_reset: 100\n  clamp_tgt_rate: 1\n");
            SoftRnicConfig c = org.softrnic.emulator.config.ConfigFiles.read(yaml);
            assertEquals(8, c.reactionPoint().rpgAiRate());
            assertEquals(100, c.reactionPoint().rpgTimeResetMicros());
            assertTrue(c.reactionPoint().clampTgtRate());
            assertEquals(1019, c.reactionPoint().dceTcpG(), "the rest is the firmware's");
            assertEquals(25.0, c.lineGbps());
        } finally {
            java.nio.file.Files.deleteIfExists(yaml);
        }
        var unknown = org.junit.jupiter.api.Assertions.assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> SoftRnicConfig.builder().gid("10.2.0.9").dcqcn("paper").dcqcnParam("rpg_ai_rat", 8).build());
        assertTrue(unknown.getMessage().contains("no DCQCN parameter is named rpg_ai_rat") && unknown.getMessage().contains("rpg_ai_rate"),
                unknown.getMessage());
        var range = org.junit.jupiter.api.Assertions.assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> SoftRnicConfig.builder().gid("10.2.0.9").dcqcn("firmware").dcqcnParam("dce_tcp_g", 2000).build());
        assertTrue(range.getMessage().contains("dce_tcp_g 2000 not in 0..1024"), range.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> SoftRnicConfig.builder().gid("10.2.0.9").dcqcnParam("rpg_ai_rate", 8).build(), "parameters without a profile");
        org.junit.jupiter.api.Assertions.assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> SoftRnicConfig.builder().gid("10.2.0.9").dcqcn("hpcc").build());
    }
}
