package org.softrnic.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An endpoint goes out of band as bytes or JSON and comes back the same; anything else is a clear refusal. */
class EndpointTest {
    static final Endpoint E = new Endpoint(Gid.parse("10.0.0.1"), 0x11, 0xabcdef, Mtu.MTU_4096, 0x7f00_1234_5000L, 0xdeadbeef, 65536);

    @Test
    void bytesAndJsonRoundTrip() {
        assertEquals(Endpoint.BYTES, E.toBytes().length);
        assertEquals(E, Endpoint.fromBytes(E.toBytes()));
        assertEquals(E, Endpoint.fromJson(E.toJson()));
        assertEquals("{\"gid\":\"::ffff:10.0.0.1\",\"qpn\":17,\"psn\":11259375,\"mtu\":4096,\"addr\":139638282145792,"
                + "\"rkey\":3735928559,\"length\":65536}", E.toJson());
        Endpoint v6 = new Endpoint(Gid.parse("fe80::1"), 1, 0, Mtu.MTU_1024, 0, 0, 0);
        assertEquals(v6, Endpoint.fromJson(v6.toJson()));
        assertEquals(v6, Endpoint.fromJson(" { \"psn\" : 0 , \"qpn\":1,\"gid\":\"fe80::1\",\"mtu\":1024,\"addr\":0,\"rkey\":0,\"length\":0 } "));
    }

    @Test
    void neighbouringQpnsGetDifferentPsns() {
        assertNotEquals(Endpoint.psnFor(0x11), Endpoint.psnFor(0x12));
        assertEquals(Endpoint.psnFor(0x11), Endpoint.psnFor(0x11));
        assertTrue(Endpoint.psnFor(0xffffff) <= 0xffffff);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "[]", "null", "{}", "{\"gid\":\"10.0.0.1\"}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":17,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0,\"x\":1}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":16777216,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"psn\":1,\"mtu\":3000,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"host.example\",\"qpn\":1,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"qpn\":2,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":4294967296,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":\"1\",\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":-1}",
            "{\"gid\":\"\\u001b]0;x\",\"qpn\":1,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0} trailing",
            "{\"gid\":\"10.0.0.1\",\"qpn\":1,\"psn\":1,\"mtu\":4294971392,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":\u0661,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}",
            "{\"gid\":\"10.0.0.1\",\"qpn\":99999999999999999999,\"psn\":1,\"mtu\":4096,\"addr\":0,\"rkey\":0,\"length\":0}"})
    void badJsonIsRefusedWithAReason(String json) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Endpoint.fromJson(json));
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
    }

    @Test
    void badBytesAreRefusedWithAReason() {
        assertThrows(IllegalArgumentException.class, () -> Endpoint.fromBytes(new byte[Endpoint.BYTES - 1]));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.fromBytes(null));
        byte[] b = E.toBytes();
        b[2] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Endpoint.fromBytes(b)).getMessage().contains("version 9"));
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            byte[] junk = E.toBytes();
            junk[r.nextInt(junk.length)] ^= (byte) (1 << r.nextInt(8));
            try {
                Endpoint.fromBytes(junk);
            } catch (IllegalArgumentException expected) {
                // refused in words; nothing else may escape
            }
        }
    }
}
