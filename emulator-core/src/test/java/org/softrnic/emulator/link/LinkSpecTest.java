package org.softrnic.emulator.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every --link form parses to what it says, and every wrong one is refused with words that name the mistake. */
class LinkSpecTest {
    @Test
    void theFormsParse() {
        LinkSpec udp = LinkSpec.parse("udp:[fd00::1]:5000");
        assertEquals(LinkSpec.Kind.UDP, udp.kind());
        assertEquals(InetAddress.ofLiteral("fd00::1"), udp.address());
        assertEquals(5000, udp.port());
        assertEquals(4791, LinkSpec.parse("udp").port());

        LinkSpec listen = LinkSpec.parse("qemu-listen:5555,ip=192.0.2.100/24,mac=02:00:00:00:00:07,loss=0.05,seed=9");
        assertEquals(LinkSpec.Kind.QEMU_LISTEN, listen.kind());
        assertEquals(5555, listen.port());
        assertEquals(24, listen.prefix());
        assertEquals(0x0200_0000_0007L, listen.mac());
        assertEquals(0.05, listen.loss());
        assertEquals(9, listen.seed());
        assertEquals(0, listen.ecn());
        assertTrue(listen.frames());
        assertEquals(1.0, LinkSpec.parse("qemu-listen:5555,ip=192.0.2.100/24,ecn=1").ecn());

        LinkSpec tap = LinkSpec.parse("tap:srn0,ip=fd00:1::64/64");
        assertEquals(LinkSpec.Kind.TAP, tap.kind());
        assertEquals("srn0", tap.device());
        assertEquals(64, tap.prefix());
        assertEquals(-1, tap.mac());
        assertEquals(0, tap.loss());
        assertTrue(tap.frames());
        assertEquals(LinkSpec.Kind.QEMU_CONNECT, LinkSpec.parse("qemu-connect:1,ip=10.0.0.1/8").kind());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ether:eth0|expected inproc, udp[:ADDR[:PORT]]",
            "udp:1.2.3.4:99999|the port must be 0..65535",
            "udp:host.example|is not an IP address",
            "qemu-listen:0,ip=10.0.0.1/24|the qemu socket's port must be 1..65535",
            "qemu-listen:5555|the frame port needs ip=A/N",
            "qemu-listen:5555,ip=10.0.0.1/33|a prefix length 1..32",
            "tap:srn0,ip=fd00::1/129|a prefix length 1..128",
            "tap:a-name-far-too-long,ip=10.0.0.1/24|1 to 15 letters",
            "tap:srn0,ip=10.0.0.1/24,loss=1.5|loss=P needs 0 <= P < 1",
            "tap:srn0,ip=10.0.0.1/24,seed=x|seed=S needs a whole number",
            "tap:srn0,ip=10.0.0.1/24,ecn=2|ecn=P needs 0 <= P <= 1",
            "tap:srn0,ip=10.0.0.1/24,mac=zz|mac=M is six hex bytes",
            "tap:srn0,ip=10.0.0.1/24,mtu=9000|unknown setting 'mtu=9000'"})
    void wrongFormsSayWhatIsWrong(String spec, String words) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkSpec.parse(spec));
        assertTrue(e.getMessage().contains(words), e.getMessage());
        assertTrue(e.getMessage().startsWith("--link " + spec), e.getMessage());
    }
}
