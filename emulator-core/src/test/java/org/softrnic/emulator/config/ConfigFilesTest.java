package org.softrnic.emulator.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Counters;
import org.softrnic.nic.NicConfig;
import org.softrnic.verbs.Mtu;

/** Configuration from JSON, YAML and the builder: the same defaults, and errors that name the field. */
class ConfigFilesTest {
    static final String JSON = """
            {"name": "soft1", "gids": ["192.0.2.1", "fe80::1"], "mtu": 4096, "udp_port": 14791,
             "link": "udp:127.0.0.1:14791", "seed": 7,
             "limits": {"max_qp": 100, "max_inline_data": 128},
             "faults": {"loss": 0.05, "delay_ns": 2000, "ecn_mark": 0.5, "seed": 9},
             "link_faults": {"soft2": {"loss": 0.2, "reorder": 0.1, "seed": 3}}, "cnp": "firmware"}
            """;
    static final String YAML = """
            name: soft1
            gids: [192.0.2.1, "fe80::1"]
            mtu: 4096
            udp_port: 14791
            link: udp:127.0.0.1:14791
            seed: 7
            limits:
              max_qp: 100
              max_inline_data: 128
            faults:
              loss: 0.05
              delay_ns: 2000
              ecn_mark: 0.5
              seed: 9
            link_faults:
              soft2: {loss: 0.2, reorder: 0.1, seed: 3}
            cnp: firmware
            """;

    @Test
    void jsonYamlAndBuilderAgree(@TempDir Path dir) throws Exception {
        SoftRnicConfig fromJson = ConfigFiles.read(Files.writeString(dir.resolve("c.json"), JSON));
        SoftRnicConfig fromYaml = ConfigFiles.read(Files.writeString(dir.resolve("c.yaml"), YAML));
        SoftRnicConfig built = SoftRnicConfig.builder().name("soft1").gid("192.0.2.1").gid("fe80::1").mtu(4096)
                .udpPort(14791).link("udp:127.0.0.1:14791").seed(7)
                .limits(new LimitsConfig(100, null, null, null, null, null, null, 128, null))
                .faults(new FaultConfig(0.05, null, null, 2000L, null, 0.5, 9L))
                .linkFaults("soft2", new FaultConfig(0.2, null, 0.1, null, null, null, 3L)).cnp("firmware").build();
        assertEquals(built, fromJson);
        assertEquals(built, fromYaml);
        NicConfig nic = fromYaml.toNicConfig();
        assertEquals(Mtu.MTU_4096, nic.activeMtu());
        assertEquals(100, nic.attributes().maxQp());
        assertEquals(128, nic.attributes().maxInlineData());
        assertEquals(0x4000, nic.attributes().maxQpWr(), "untouched limits keep rxe's default");
        assertTrue(nic.gids().get(0).isIpv4Mapped());
        assertEquals(0.05, fromJson.faults().toLinkFaults().loss());
        assertEquals(0.5, fromJson.faults().toLinkFaults().ecnMark());
        assertEquals(0.2, fromYaml.linkFaults().get("soft2").loss());
        assertEquals(org.softrnic.nic.cc.NotificationPoint.firmware(), fromYaml.notificationPoint());
    }

    @Test
    void missingFieldsTakeDefaults() {
        SoftRnicConfig c = ConfigFiles.parseJson("{\"gids\": [\"192.0.2.9\"]}");
        assertEquals("softrnic0", c.name());
        assertEquals(1024, c.mtu());
        assertEquals(4791, c.udpPort());
        assertEquals("inproc", c.link());
        assertEquals(FaultConfig.NONE, c.faults());
        assertEquals(org.softrnic.nic.cc.NotificationPoint.OFF, c.notificationPoint(), "no CNPs, as rxe");
    }

    @Test
    void mistakesAreNamed() {
        assertTrue(assertThrows(ConfigException.class, () -> ConfigFiles.parseJson("{\"gids\": [\"192.0.2.9\"], \"mtu\": 1500}"))
                .getMessage().contains("mtu"));
        assertTrue(assertThrows(ConfigException.class, () -> ConfigFiles.parseJson("{\"gids\": [\"not-an-ip\"]}"))
                .getMessage().contains("gids"));
        assertTrue(assertThrows(ConfigException.class, () -> ConfigFiles.parseJson("{\"gids\": []}"))
                .getMessage().contains("at least one GID"));
        assertTrue(assertThrows(ConfigException.class,
                () -> ConfigFiles.parseJson("{\"gids\": [\"192.0.2.9\"], \"faults\": {\"loss\": 1.5}}"))
                .getMessage().contains("faults.loss"));
        String typo = assertThrows(ConfigException.class, () -> ConfigFiles.parseYaml("gids: [192.0.2.9]\nmut: 1024\n"))
                .getMessage();
        assertTrue(typo.contains("mut"), typo);
        assertThrows(ConfigException.class, () -> ConfigFiles.read(Path.of("/nonexistent/c.json")));
        assertTrue(assertThrows(ConfigException.class, () -> ConfigFiles.parseYaml("gids: [192.0.2.9]\ncnp: dcqcn\n"))
                .getMessage().contains("cnp must be off, firmware or paper"));
    }

    @Test
    void countersExportAsJsonWithRxeNames() {
        Counters c = new Counters();
        c.inc(Counter.SENT_PKTS);
        c.add(Counter.RCVD_SEQ_ERR, 3);
        String json = ConfigFiles.toJson(c.snapshot());
        assertTrue(json.contains("\"sent_pkts\" : 1"), json);
        assertTrue(json.contains("\"rcvd_seq_err\" : 3"), json);
        assertTrue(json.contains("\"drop_bad_icrc\" : 0"), json);
    }
}
